package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuConstraints;
import io.criresmgr.policy.sysfs.SysfsReader;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * Provides the {@code balloons} policy: reads the topology below the host root and resolves the CPU
 * constraints once, so bad resources or {@code MinBalloons} that do not fit fail activation.
 */
public final class BalloonsPolicyProvider implements PolicyProvider<BalloonsOptions> {
  /** The policy's name. */
  public static final String NAME = "balloons";

  private final Function<Path, SystemTopology> topologies;

  /** The provider reading the topology from sysfs. */
  public BalloonsPolicyProvider() {
    this(SysfsReader::read);
  }

  /** A provider with another topology source, for tests. */
  BalloonsPolicyProvider(Function<Path, SystemTopology> topologies) {
    this.topologies = Objects.requireNonNull(topologies, "topologies");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Places containers in balloons of CPUs that inflate and deflate with their requests.";
  }

  @Override
  public BalloonsOptions parseOptions(JsonNode section) {
    return BalloonsOptions.parse(section);
  }

  /**
   * Creates the policy.
   *
   * @throws io.criresmgr.policy.PolicyException if the topology cannot be read, a CPU constraint is
   *     malformed, or the {@code MinBalloons} do not fit
   */
  @Override
  public Policy create(PolicyContext context, BalloonsOptions opts) {
    SystemTopology topology = topologies.apply(context.hostRoot());
    CpuConstraints cpus =
        CpuConstraints.resolve(NAME, context, topology, new CpuAllocator(topology));
    return new BalloonsPolicy(
        NAME,
        topology,
        opts,
        cpus.allowed(),
        cpus.reserved(),
        DeviceCpus.of(context.hostRoot(), topology));
  }
}
