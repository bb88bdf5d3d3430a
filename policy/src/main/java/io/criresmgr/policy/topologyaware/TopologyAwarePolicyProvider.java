package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuConstraints;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.SysfsReader;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology-aware policy's entry in the {@link io.criresmgr.policy.PolicyRegistry}: name {@code
 * topology-aware} (and, as cri-resmgr had it, the alias {@link #memtier()} with its own options
 * section {@code policy.memtier}), options {@link TopologyAwareOptions}. {@link #create} reads the
 * topology below the host root and resolves the CPU constraints once, so a bad {@code
 * policy.AvailableResources} or {@code policy.ReservedResources} fails activation (the daemon does
 * not start), not a request.
 */
public final class TopologyAwarePolicyProvider implements PolicyProvider<TopologyAwareOptions> {
  /** The policy's name. */
  public static final String NAME = "topology-aware";

  /** cri-resmgr's alias of the policy. */
  public static final String ALIAS = "memtier";

  private static final Logger LOG = LoggerFactory.getLogger(TopologyAwarePolicyProvider.class);

  private final String name;
  private final Function<Path, SystemTopology> topologies;
  private final Function<JsonNode, TopologyAwareOptions> optionsParser;
  private final BiFunction<TopologyAwareOptions, Set<MemoryType>, RequestSource> requests;
  private final Clock clock;

  /** The provider of {@code topology-aware}. */
  public TopologyAwarePolicyProvider() {
    this(
        NAME, SysfsReader::read, TopologyAwareOptions::parse, RequestSource::of, Clock.systemUTC());
  }

  /** The provider of the alias {@code memtier}: the same policy under cri-resmgr's other name. */
  public static TopologyAwarePolicyProvider memtier() {
    return new TopologyAwarePolicyProvider(
        ALIAS,
        SysfsReader::read,
        TopologyAwareOptions::parse,
        RequestSource::of,
        Clock.systemUTC());
  }

  /** A provider with its parts replaced, for tests. */
  TopologyAwarePolicyProvider(
      String name,
      Function<Path, SystemTopology> topologies,
      Function<JsonNode, TopologyAwareOptions> optionsParser,
      BiFunction<TopologyAwareOptions, Set<MemoryType>, RequestSource> requests,
      Clock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.topologies = Objects.requireNonNull(topologies, "topologies");
    this.optionsParser = Objects.requireNonNull(optionsParser, "optionsParser");
    this.requests = Objects.requireNonNull(requests, "requests");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    if (name.equals(ALIAS)) {
      return "Alias of topology-aware, with its own options section policy." + ALIAS + ".";
    }
    return "Places containers by hardware topology: exclusive, isolated, shared and reserved CPUs"
        + " and memory close to them.";
  }

  @Override
  public TopologyAwareOptions parseOptions(JsonNode section) {
    return optionsParser.apply(section);
  }

  /**
   * Creates the policy.
   *
   * @throws io.criresmgr.policy.PolicyException if the topology cannot be read or is not supported,
   *     or a CPU constraint is malformed or cannot be met
   */
  @Override
  public Policy create(PolicyContext context, TopologyAwareOptions opts) {
    SystemTopology topology = topologies.apply(context.hostRoot());
    CpuAllocator allocator = new CpuAllocator(topology);
    CpuConstraints cpus = CpuConstraints.resolve(NAME, context, topology, allocator);
    CpuPicker picker = CpuPicker.of(allocator);
    PoolTree tree =
        PoolTreeBuilder.build(topology, cpus.allowed(), cpus.reserved())
            .withPriorityCpus(PriorityCpus.of(topology, allocator.priorities()));
    LOG.info(
        "{} policy: available CPUs {}, reserved CPUs {}, isolated CPUs {}, {} pools",
        name,
        cpus.allowed(),
        cpus.reserved(),
        tree.isolated(),
        tree.size());
    return new TopologyAwarePolicy(
        name, tree, opts, requests.apply(opts, tree.presentTypes()), picker, clock);
  }
}
