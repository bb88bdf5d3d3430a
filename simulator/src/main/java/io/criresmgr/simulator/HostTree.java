package io.criresmgr.simulator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.FakeDevices;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.SysfsReader;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The fake host a scenario runs on: the sysfs tree of its topology (with its isolated CPUs), the
 * cpuset cgroups it names ({@code <root>/sys/fs/cgroup/cpuset/<name>/cpuset.cpus}) and its devices
 * ({@link FakeDevices}), below a host root given to the daemon as {@code --host-root}.
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
    SystemTopology topology = SysfsReader.read(root);
    scenario.devices().forEach((path, d) -> device(scenario, topology, root, path, d));
    return topology;
  }

  /**
   * Writes {@code device} at {@code path}.
   *
   * @throws ScenarioException if its NUMA node or CPUs are not the topology's
   */
  private static void device(
      Scenario scenario, SystemTopology topology, Path root, String path, HostDevice device) {
    String where = scenario.source() + ": devices: " + path + ": ";
    if (device.numa() >= 0 && !topology.nodes().containsKey(device.numa())) {
      throw new ScenarioException(
          where
              + "numa: no node "
              + device.numa()
              + ", the topology has "
              + topology.nodes().keySet());
    }
    if (!topology.presentCpus().containsAll(device.cpus())) {
      throw new ScenarioException(
          where
              + "cpus: "
              + device.cpus()
              + " not within the topology's CPUs "
              + topology.presentCpus());
    }
    try {
      FakeDevices.write(root, path, device.numa(), device.cpus());
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(where + e.getMessage(), e);
    }
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
