package io.criresmgr.controllers.cgroups;

import io.criresmgr.cache.LinuxResources;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Writes a container's {@link LinuxResources} into its cgroup, setting by setting, through a {@link
 * ContainerCgroupWriter} (so only what differs is written). Settings that are not set (zero or
 * empty) are left as they are.
 */
final class CgroupResources {
  private CgroupResources() {}

  /** One setting: writes and returns whether it wrote. */
  private interface Write {
    boolean write();
  }

  /** A setting's name (in logs and the result) and its write. */
  private record Setting(String what, Write write) {}

  /**
   * Writes every set value of {@code resources}: cpuset cpus and mems, cpu shares (v2 weight), the
   * quota with its period (the kernel's default period if none is set; a period alone is not
   * written), the memory limit and the unified (v2) files. A failing setting does not stop the
   * others.
   *
   * @return what was written, e.g. {@code [cpuset.cpus, memory limit]}; empty if all was in place
   * @throws CgroupException with every failure's message, separated by {@code "; "}
   */
  static List<String> write(ContainerCgroupWriter w, LinuxResources resources) {
    List<String> written = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (Setting setting : settings(w, resources)) {
      try {
        if (setting.write().write()) {
          written.add(setting.what());
        }
      } catch (CgroupException e) {
        failures.add(e.getMessage());
      }
    }
    if (!failures.isEmpty()) {
      throw new CgroupException(String.join("; ", failures));
    }
    return List.copyOf(written);
  }

  private static List<Setting> settings(ContainerCgroupWriter w, LinuxResources r) {
    List<Setting> out = new ArrayList<>();
    if (!r.cpusetCpus().isBlank()) {
      out.add(new Setting("cpuset.cpus", () -> w.setCpusetCpus(CpusetList.parse(r.cpusetCpus()))));
    }
    if (!r.cpusetMems().isBlank()) {
      out.add(new Setting("cpuset.mems", () -> w.setCpusetMems(CpusetList.parse(r.cpusetMems()))));
    }
    if (r.cpuShares() != 0) {
      out.add(new Setting("cpu shares", () -> w.setCpuShares(new CpuShares(r.cpuShares()))));
    }
    if (r.cpuQuota() != 0) {
      out.add(new Setting("cpu quota", () -> w.setCpuQuota(quota(r))));
    }
    if (r.memoryLimitBytes() != 0) {
      out.add(new Setting("memory limit", () -> w.setMemoryLimit(r.memoryLimitBytes())));
    }
    new TreeMap<>(r.unified())
        .forEach((file, value) -> out.add(new Setting(file, () -> w.setUnified(file, value))));
    return out;
  }

  /** A negative quota is unlimited (CRI uses -1); no period means the kernel's default. */
  private static CpuQuota quota(LinuxResources r) {
    long period = r.cpuPeriod() != 0 ? r.cpuPeriod() : CpuQuota.DEFAULT_PERIOD_US;
    return new CpuQuota(r.cpuQuota() < 0 ? CpuQuota.UNLIMITED : r.cpuQuota(), period);
  }
}
