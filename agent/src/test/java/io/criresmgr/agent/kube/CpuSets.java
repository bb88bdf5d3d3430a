package io.criresmgr.agent.kube;

import java.util.Set;
import java.util.TreeSet;

/** The CPUs of cpuset strings such as {@code 1-2,5}, as the runtime reports them. */
final class CpuSets {
  private CpuSets() {}

  /** The CPUs of {@code cpuset}. */
  static Set<Integer> of(String cpuset) {
    Set<Integer> cpus = new TreeSet<>();
    for (String part : cpuset.split(",", -1)) {
      if (part.isBlank()) {
        continue;
      }
      String[] range = part.trim().split("-", -1);
      int first = Integer.parseInt(range[0]);
      int last = Integer.parseInt(range[range.length - 1]);
      for (int cpu = first; cpu <= last; cpu++) {
        cpus.add(cpu);
      }
    }
    return cpus;
  }

  /** How many CPUs {@code cpuset} has. */
  static int count(String cpuset) {
    return of(cpuset).size();
  }
}
