package io.criresmgr.policy.cpuallocator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Derives CPU priority classes from cpufreq facts as cri-resmgr does without Intel SST ({@code
 * discoverCpufreqPriority}), package by package, plus hybrid core types as a last resort. Within
 * each package:
 *
 * <ol>
 *   <li>more than one known EPP value: CPUs with an EPP below the least performance-oriented one
 *       present are HIGH, the others (including unknown EPP) LOW;
 *   <li>else more than one base frequency: CPUs above the lowest are HIGH, the others LOW;
 *   <li>else more than one core type: P-cores HIGH, E-cores LOW, unknown NORMAL;
 *   <li>else every CPU is NORMAL.
 * </ol>
 *
 * <p>EPP wins over base frequency because cri-resmgr evaluates it last and overwrites.
 */
final class PriorityDiscovery {
  /** EPP names in cri-resmgr's order: a lower index prefers performance more. */
  private static final List<String> EPP_ORDER =
      List.of("performance", "balance_performance", "balance_power", "power");

  private static final int UNKNOWN_EPP = EPP_ORDER.size();

  private PriorityDiscovery() {}

  /** The CPUs of each class HIGH, NORMAL and LOW (every online CPU in exactly one). */
  static Map<CpuPriority, CpuSet> discover(SystemTopology topology) {
    Map<CpuPriority, List<Integer>> ids = new EnumMap<>(CpuPriority.class);
    for (int pkg : topology.packageIds()) {
      List<Cpu> cpus = topology.packageCpus(pkg).stream().mapToObj(topology::cpu).toList();
      classifyPackage(cpus, ids);
    }
    Map<CpuPriority, CpuSet> sets = new EnumMap<>(CpuPriority.class);
    for (CpuPriority prio : List.of(CpuPriority.HIGH, CpuPriority.NORMAL, CpuPriority.LOW)) {
      sets.put(prio, CpuSet.of(ids.getOrDefault(prio, List.of())));
    }
    return Collections.unmodifiableMap(sets);
  }

  private static void classifyPackage(List<Cpu> cpus, Map<CpuPriority, List<Integer>> ids) {
    SortedSet<Long> freqs = new TreeSet<>();
    SortedSet<Integer> epps = new TreeSet<>();
    Set<CoreType> types = EnumSet.noneOf(CoreType.class);
    for (Cpu cpu : cpus) {
      if (cpu.frequency().baseKhz() > 0) {
        freqs.add(cpu.frequency().baseKhz());
      }
      if (epp(cpu) != UNKNOWN_EPP) {
        epps.add(epp(cpu));
      }
      types.add(cpu.coreType());
    }
    for (Cpu cpu : cpus) {
      CpuPriority prio = classify(cpu, freqs, epps, types.size() > 1);
      ids.computeIfAbsent(prio, p -> new ArrayList<>()).add(cpu.id());
    }
  }

  private static CpuPriority classify(
      Cpu cpu, SortedSet<Long> freqs, SortedSet<Integer> epps, boolean hybrid) {
    if (epps.size() > 1) {
      return epp(cpu) < epps.last() ? CpuPriority.HIGH : CpuPriority.LOW;
    }
    if (freqs.size() > 1) {
      return cpu.frequency().baseKhz() > freqs.first() ? CpuPriority.HIGH : CpuPriority.LOW;
    }
    if (hybrid) {
      return switch (cpu.coreType()) {
        case PERFORMANCE -> CpuPriority.HIGH;
        case EFFICIENT -> CpuPriority.LOW;
        case UNKNOWN -> CpuPriority.NORMAL;
      };
    }
    return CpuPriority.NORMAL;
  }

  private static int epp(Cpu cpu) {
    int index = EPP_ORDER.indexOf(cpu.frequency().epp().trim());
    return index < 0 ? UNKNOWN_EPP : index;
  }
}
