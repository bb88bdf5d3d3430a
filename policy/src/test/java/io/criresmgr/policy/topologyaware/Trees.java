package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Synthetic pool trees for tests that only need memory. */
final class Trees {
  private Trees() {}

  /**
   * One pool with {@code bytes[0]} of DRAM if given one amount; else leaves with the given amounts
   * under a root holding their sum.
   */
  static PoolTree memoryOnly(long... bytes) {
    if (bytes.length == 1) {
      return new PoolTree(
          List.of(pool(0, "socket #0", 0, -1, List.of(), List.of(), bytes[0], 0)),
          CpuSet.EMPTY,
          CpuSet.EMPTY,
          CpuSet.EMPTY);
    }
    int root = bytes.length;
    List<Pool> pools = new ArrayList<>();
    long sum = 0;
    List<Integer> leaves = new ArrayList<>();
    for (int i = 0; i < bytes.length; i++) {
      pools.add(pool(i, "NUMA node #" + i, 1, root, List.of(root), List.of(), bytes[i], i));
      leaves.add(i);
      sum += bytes[i];
    }
    pools.add(pool(root, "root", 0, -1, List.of(), leaves, sum, -1));
    return new PoolTree(pools, CpuSet.EMPTY, CpuSet.EMPTY, CpuSet.EMPTY);
  }

  private static Pool pool(
      int id,
      String name,
      int depth,
      int parent,
      List<Integer> ancestors,
      List<Integer> children,
      long bytes,
      int node) {
    CpuSet nodes = node >= 0 ? CpuSet.of(node) : CpuSet.range(0, children.size() - 1);
    return new Pool(
        id,
        name,
        depth == 0 ? PoolKind.VIRTUAL : PoolKind.NUMA,
        depth,
        parent,
        children,
        ancestors,
        children,
        CpuSet.EMPTY,
        CpuSet.EMPTY,
        CpuSet.EMPTY,
        new Memory(bytes, 0, 0),
        Map.of(MemoryType.DRAM, nodes));
  }
}
