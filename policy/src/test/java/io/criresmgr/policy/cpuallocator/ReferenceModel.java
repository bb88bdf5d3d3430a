package io.criresmgr.policy.cpuallocator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The allocation rules written the slow, obvious way with set operations and one comparator per
 * step, mirroring cri-resmgr's sorts term by term (including the package free count the fast
 * version drops). {@link ReferenceModelTest} checks the fast allocator against it.
 */
final class ReferenceModel {
  private final SystemTopology topology;
  private final Map<CpuPriority, CpuSet> classes;
  private final CpuPriority prefer;
  private CpuSet from;
  private CpuSet result = CpuSet.EMPTY;
  private int count;

  private ReferenceModel(
      SystemTopology topology,
      Map<CpuPriority, CpuSet> classes,
      CpuSet from,
      int count,
      CpuPriority prefer) {
    this.topology = topology;
    this.classes = classes;
    this.from = from;
    this.count = count;
    this.prefer = prefer;
  }

  /** {@code count} CPUs of {@code from}, which must be online and have more than that. */
  static CpuSet allocate(
      SystemTopology topology,
      Map<CpuPriority, CpuSet> classes,
      CpuSet from,
      int count,
      CpuPriority prefer) {
    ReferenceModel m = new ReferenceModel(topology, classes, from, count, prefer);
    m.takeIdle(
        new ArrayList<>(topology.packageIds()),
        topology::packageCpus,
        m.comparing(topology::packageCpus));
    if (m.count > 0) {
      List<Integer> cores = new ArrayList<>();
      for (int id : topology.onlineCpus().stream().toArray()) {
        if (topology.coreCpus(id).stream().min().getAsInt() == id) {
          cores.add(id);
        }
      }
      m.takeIdle(cores, topology::coreCpus, m.comparing(topology::coreCpus));
    }
    if (m.count > 0) {
      m.takeThreads();
    }
    return m.result;
  }

  private Comparator<Integer> comparing(java.util.function.IntFunction<CpuSet> set) {
    return (a, b) -> cmp(set.apply(b), set.apply(a), -1);
  }

  private void takeIdle(
      List<Integer> ids, java.util.function.IntFunction<CpuSet> set, Comparator<Integer> order) {
    ids.removeIf(id -> !from.containsAll(set.apply(id)));
    ids.sort(order.thenComparing(Comparator.naturalOrder()));
    for (int id : ids) {
      CpuSet cpus = set.apply(id);
      if (count >= cpus.size()) {
        take(cpus);
        if (count == 0) {
          return;
        }
      }
    }
  }

  private void takeThreads() {
    List<Integer> cpus = new ArrayList<>(from.stream().boxed().toList());
    cpus.sort(
        Comparator.<Integer>comparingInt(id -> -pkg(id).intersection(result).size())
            .thenComparing(
                (a, b) -> cmp(pkg(b).intersection(from), pkg(a).intersection(from), count))
            .thenComparingInt(id -> topology.cpu(id).packageId())
            .thenComparing((a, b) -> cmp(CpuSet.of(b), CpuSet.of(a), 0))
            .thenComparingInt(id -> pkg(id).intersection(from).size())
            .thenComparingInt(id -> topology.coreCpus(id).intersection(from).size())
            .thenComparing(Comparator.naturalOrder()));
    for (int id : cpus.subList(0, count)) {
      take(CpuSet.of(id));
    }
  }

  private CpuSet pkg(int cpu) {
    return topology.packageCpus(topology.cpu(cpu).packageId());
  }

  private void take(CpuSet cpus) {
    result = result.union(cpus);
    from = from.difference(cpus);
    count -= cpus.size();
  }

  /** cri-resmgr's {@code cmpCPUSet}: positive if {@code a} is preferred. */
  private int cmp(CpuSet a, CpuSet b, int wanted) {
    if (prefer == CpuPriority.NONE) {
      return 0;
    }
    CpuPriority[] all = {CpuPriority.HIGH, CpuPriority.NORMAL, CpuPriority.LOW};
    for (int p = prefer.rank(); p < all.length; p++) {
      int prefA = count(a, all[p]);
      int prefB = count(b, all[p]);
      if (wanted > 0 && p == prefer.rank() && prefA >= wanted && prefB >= wanted) {
        return prefB - prefA;
      }
      int diff = prefA - prefB;
      if (diff != 0) {
        return diff;
      }
    }
    for (int p = 0; p < prefer.rank(); p++) {
      int diff = count(b, all[p]) - count(a, all[p]);
      if (diff != 0) {
        return diff;
      }
    }
    return 0;
  }

  private int count(CpuSet set, CpuPriority prio) {
    return set.intersection(classes.getOrDefault(prio, CpuSet.EMPTY)).size();
  }
}
