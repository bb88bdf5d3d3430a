package io.criresmgr.proxy.scenario;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.SysfsReader;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The fake host a scenario runs on: the sysfs tree of its topology (with its isolated CPUs) and the
 * cpuset cgroups it names ({@code <root>/sys/fs/cgroup/cpuset/<name>/cpuset.cpus}), below a host
 * root given to the daemon as {@code --host-root}.
 */
final class HostTree {
  /** Where cpuset cgroups are created, relative to the host root. */
  static final String CPUSET_MOUNT = "sys/fs/cgroup/cpuset";

  private HostTree() {}

  /**
   * Resolves {@code scenario}'s topology (a built-in name or a spec).
   *
   * @throws ScenarioException if there is none or it is invalid
   */
  static TopologySpec spec(Scenario scenario) {
    if (scenario.topology().isBlank()) {
      throw new ScenarioException(
          scenario.source()
              + ": topology: required (a built-in name such"
              + " as n4c16, or a spec), in the file or with --topology");
    }
    try {
      TopologySpec spec = TopologySpec.resolve(scenario.topology());
      return scenario.isolcpus().isEmpty() ? spec : spec.withIsolated(scenario.isolcpus());
    } catch (PolicyException | IllegalArgumentException e) {
      throw new ScenarioException(scenario.source() + ": topology: " + e.getMessage(), e);
    }
  }

  /** Writes the tree of {@code scenario} below {@code root}; returns the topology read back. */
  static SystemTopology write(Scenario scenario, Path root) {
    FakeSysfsWriter.write(spec(scenario), root);
    scenario.cgroups().forEach((name, cpus) -> cgroup(root, name, cpus));
    return SysfsReader.read(root);
  }

  private static void cgroup(Path root, String name, CpuSet cpus) {
    Path dir = root.resolve(CPUSET_MOUNT).resolve(name);
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("cpuset.cpus"), cpus + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create cgroup " + dir, e);
    }
  }
}
