package io.criresmgr.controllers.cpu;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.cpu.LimitFiles.SysfsProblem;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Writes the limits of CPU classes to the host: each CPU's cpufreq limits from its class, and each
 * die's uncore limits from the classes present on it. CPUs in no class and dies without a class
 * that sets uncore limits are left alone.
 */
final class CpuClassEnforcer {
  private static final int MAX_PROBLEMS_SHOWN = 5;

  private final CpuSysfs sysfs;

  /** An enforcer writing to {@code sysfs}. */
  CpuClassEnforcer(CpuSysfs sysfs) {
    this.sysfs = Objects.requireNonNull(sysfs, "sysfs");
  }

  /**
   * Applies {@code classes} (name to CPUs; names {@code config} does not define are skipped): every
   * file whose value differs is written, the others are not touched.
   *
   * @return the number of files written
   * @throws ControllerException naming each file that could not be read or written, with the value
   *     and the operating system's error, after trying all others
   */
  int apply(CpuConfig config, Map<String, CpuSet> classes) {
    List<String> problems = new ArrayList<>();
    int written = 0;
    Map<Die, Limits> uncore = new TreeMap<>(Die.ORDER);
    for (Map.Entry<String, CpuSet> e : classes.entrySet()) {
      Optional<CpuClass> c = config.find(e.getKey());
      if (c.isPresent()) {
        written += applyScaling(c.get(), e.getValue(), problems);
        addUncore(uncore, c.get(), e.getValue(), problems);
      }
    }
    for (Map.Entry<Die, Limits> e : uncore.entrySet()) {
      written += applyUncore(e.getKey(), e.getValue().consistent(), problems);
    }
    if (!problems.isEmpty()) {
      throw new ControllerException(summary(problems));
    }
    return written;
  }

  private int applyScaling(CpuClass c, CpuSet cpus, List<String> problems) {
    Limits limits = new Limits(c.minFreq(), c.maxFreq());
    int written = 0;
    for (int cpu : cpus.stream().toArray()) {
      written += sysfs.scaling(cpu).apply(sysfs.io(), limits, problems);
    }
    return written;
  }

  /** Merges the uncore limits of {@code c} into those of the dies of {@code cpus}. */
  private void addUncore(Map<Die, Limits> uncore, CpuClass c, CpuSet cpus, List<String> problems) {
    Limits limits = new Limits(c.uncoreMinFreq(), c.uncoreMaxFreq());
    if (!limits.any()) {
      return;
    }
    for (int cpu : cpus.stream().toArray()) {
      try {
        uncore.merge(sysfs.die(cpu), limits, Limits::largest);
      } catch (SysfsProblem e) {
        problems.add("die of CPU " + cpu + ": " + e.getMessage());
      }
    }
  }

  private int applyUncore(Die die, Limits limits, List<String> problems) {
    if (!Files.isDirectory(sysfs.uncoreDir(die))) {
      problems.add(
          "uncore frequency control is not available: "
              + sysfs.uncoreDir(die)
              + " does not exist (is the intel_uncore_frequency driver loaded?)");
      return 0;
    }
    return sysfs.uncore(die).apply(sysfs.io(), limits, problems);
  }

  private static String summary(List<String> problems) {
    List<String> shown = problems.subList(0, Math.min(problems.size(), MAX_PROBLEMS_SHOWN));
    String more =
        problems.size() > shown.size() ? "; and " + (problems.size() - shown.size()) + " more" : "";
    return String.join("; ", shown) + more;
  }
}
