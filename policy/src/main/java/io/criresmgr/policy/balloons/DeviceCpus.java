package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.sysfs.DeviceHints;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CPUs close to the devices of {@code PreferCloseToDevices}, read from sysfs below the host
 * root as container device hints are ({@link DeviceHints}; docs/policy/balloons.md, "CPU
 * preferences"). A device's CPUs are its {@code local_cpulist}, else the CPUs of its {@code
 * numa_node}. A path that gives neither is logged once as a warning and prefers no CPUs, as in
 * nri-plugins: one configuration may serve nodes with and without the device.
 */
public final class DeviceCpus {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceCpus.class);

  /** Resolves no device (no host root to read): every device has no CPUs, with a warning. */
  public static final DeviceCpus NONE = new DeviceCpus(null, null);

  private final @Nullable Path hostRoot;
  private final @Nullable SystemTopology topology;
  private final Map<String, CpuSet> known = new HashMap<>();

  private DeviceCpus(@Nullable Path hostRoot, @Nullable SystemTopology topology) {
    this.hostRoot = hostRoot;
    this.topology = topology;
  }

  /**
   * Devices below {@code hostRoot} ({@code --host-root}; empty path: {@code /}) on {@code
   * topology}.
   */
  public static DeviceCpus of(Path hostRoot, SystemTopology topology) {
    Objects.requireNonNull(hostRoot, "hostRoot");
    Objects.requireNonNull(topology, "topology");
    return new DeviceCpus(hostRoot.toString().isEmpty() ? Path.of("/") : hostRoot, topology);
  }

  /** The CPUs close to the device at {@code path}; empty if it resolves to none (warned once). */
  public synchronized CpuSet cpus(String path) {
    CpuSet cpus = known.get(path);
    if (cpus == null) {
      cpus = read(path);
      known.put(path, cpus);
    }
    return cpus;
  }

  private CpuSet read(String path) {
    if (hostRoot == null || topology == null) {
      LOG.warn("PreferCloseToDevices: device {} ignored: no host root to read it from", path);
      return CpuSet.EMPTY;
    }
    DeviceHints hints = new DeviceHints(hostRoot);
    CpuSet cpus = cpusOf(hints.hints(path), topology);
    if (cpus.isEmpty()) {
      LOG.warn(
          "PreferCloseToDevices: device {} ignored: {} below host root {}",
          path,
          hints.exists(path)
              ? "its sysfs path has no local_cpulist and no numa_node of a known NUMA node"
              : "it does not exist",
          hostRoot);
    }
    return cpus;
  }

  /** The union of each hint's CPUs, or of the CPUs of its NUMA nodes if it names no CPUs. */
  static CpuSet cpusOf(List<TopologyHint> hints, SystemTopology topology) {
    CpuSet out = CpuSet.EMPTY;
    for (TopologyHint h : hints) {
      if (!h.cpus().isEmpty()) {
        out = out.union(h.cpus());
        continue;
      }
      for (int id : h.numas().stream().toArray()) {
        NumaNode node = topology.nodes().get(id);
        if (node != null) {
          out = out.union(node.cpus());
        }
      }
    }
    return out;
  }
}
