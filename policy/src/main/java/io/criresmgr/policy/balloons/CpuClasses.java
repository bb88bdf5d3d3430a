package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The CPU class (cpu controller) of every allowed CPU: a balloon's CPUs get its type's {@code
 * CPUClass}, the allowed CPUs in no balloon get {@code IdleCPUClass}; {@code ""} is no class. The
 * reserved CPUs get the class of the first balloon holding them, {@code reserved[0]}, also when
 * {@code default[0]} shares them.
 */
final class CpuClasses {
  private CpuClasses() {}

  /** Class name to its CPUs for the balloons of {@code set}, without the CPUs of no class. */
  static SortedMap<String, CpuSet> of(BalloonSet set, String idleClass) {
    return of(set.balloons(), set.types(), set.allowed(), idleClass);
  }

  /**
   * Class name to its CPUs for {@code balloons} of {@code types} over the {@code allowed} CPUs,
   * without the CPUs of no class; balloons of unknown types get no class.
   */
  static SortedMap<String, CpuSet> of(
      List<Balloon> balloons, Map<String, BalloonType> types, CpuSet allowed, String idleClass) {
    TreeMap<String, CpuSet> out = new TreeMap<>();
    CpuSet classified = CpuSet.EMPTY;
    for (Balloon b : balloons) {
      BalloonType t = types.get(b.type());
      CpuSet cpus = b.cpus().difference(classified);
      classified = classified.union(b.cpus());
      if (t != null) {
        add(out, t.cpuClass(), cpus);
      }
    }
    add(out, idleClass, allowed.difference(classified));
    return Collections.unmodifiableSortedMap(out);
  }

  private static void add(Map<String, CpuSet> out, String cpuClass, CpuSet cpus) {
    if (!cpuClass.isEmpty() && !cpus.isEmpty()) {
      out.merge(cpuClass, cpus, CpuSet::union);
    }
  }
}
