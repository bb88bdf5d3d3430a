package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.ResourceExport;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What topology-aware exports for a grant (cri-resmgr's {@code ExportResourceData} of the policy):
 * its shared, exclusive and isolated CPUs and its memory nodes, all and by type. Memory node lists
 * are comma-separated ids, as cri-resmgr wrote them.
 */
final class ExportedData {
  private ExportedData() {}

  /** What of a grant its data depends on: grants of one shape export the same variables. */
  record Shape(CpuKind kind, int pool, boolean usesShared, CpuSet exclusive, CpuSet memset) {
    static Shape of(Grant g) {
      return new Shape(g.kind(), g.pool(), g.usesSharedCpus(), g.exclusive(), g.memset());
    }

    /** Whether {@code a} and {@code b} have the same shape, without making either. */
    static boolean same(Grant a, Grant b) {
      return a.kind() == b.kind()
          && a.pool() == b.pool()
          && a.usesSharedCpus() == b.usesSharedCpus()
          && a.exclusive().equals(b.exclusive())
          && a.memset().equals(b.memset());
    }
  }

  /** Data by grant shape ({@link Shape}), for a step's loop over the containers it exports for. */
  static GrantShapes<Shape, Map<String, String>> shapes() {
    return new GrantShapes<>(Shape::same, Shape::of);
  }

  /**
   * The variables of {@code g} in the state {@code ledger}, unmodifiable; empty values are left
   * out.
   */
  static Map<String, String> of(Grant g, Ledger ledger) {
    Map<String, String> data = new TreeMap<>();
    Pool pool = ledger.tree().pool(g.pool());
    CpuSet isolated = g.exclusive().intersection(pool.isolated());
    put(data, ResourceExport.SHARED_CPUS, shared(g, pool, ledger).toString());
    put(data, ResourceExport.EXCLUSIVE_CPUS, g.exclusive().difference(isolated).toString());
    put(data, ResourceExport.ISOLATED_CPUS, isolated.toString());
    data.put(ResourceExport.ALL_MEMS, ids(g.memset()));
    Pool root = ledger.tree().root();
    put(data, ResourceExport.DRAM_MEMS, ids(g.memset().intersection(root.memset(MemoryType.DRAM))));
    put(data, ResourceExport.PMEM_MEMS, ids(g.memset().intersection(root.memset(MemoryType.PMEM))));
    put(data, ResourceExport.HBM_MEMS, ids(g.memset().intersection(root.memset(MemoryType.HBM))));
    return Collections.unmodifiableMap(data);
  }

  /** The shared CPUs the grant runs on: the pool's (or reserved) ones it shares with others. */
  private static CpuSet shared(Grant g, Pool pool, Ledger ledger) {
    return switch (g.kind()) {
      case RESERVED -> pool.reserved();
      case PRESERVE -> CpuSet.EMPTY;
      case NORMAL -> g.usesSharedCpus() ? GrantAssignments.shared(pool, ledger) : CpuSet.EMPTY;
    };
  }

  private static void put(Map<String, String> data, String name, String value) {
    if (!value.isEmpty()) {
      data.put(name, value);
    }
  }

  private static String ids(CpuSet nodes) {
    StringBuilder out = new StringBuilder();
    for (int id = nodes.next(0); id >= 0; id = nodes.next(id + 1)) {
      out.append(out.length() == 0 ? "" : ",").append(id);
    }
    return out.toString();
  }
}
