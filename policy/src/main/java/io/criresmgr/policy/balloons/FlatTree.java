package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link CpuTree} in arrays, for counting current and free CPUs of every element in linear time.
 * Elements are numbered in depth-first preorder; the threads below element {@code i} are the leaf
 * positions {@code lo[i]} to {@code hi[i] - 1}, since a subtree's leaves are contiguous in that
 * order.
 */
final class FlatTree {
  final String[] names;
  final int[] depth;
  final int[] lo;
  final int[] hi;

  /** The element indices from the root down to each element. */
  final int[][] path;

  /** The CPU of each leaf position. */
  final int[] leafCpus;

  FlatTree(CpuTree tree) {
    List<int[]> paths = new ArrayList<>();
    List<Integer> leaves = new ArrayList<>();
    int size = count(tree.root());
    names = new String[size];
    depth = new int[size];
    lo = new int[size];
    hi = new int[size];
    walk(tree.root(), new int[0], paths, leaves);
    path = paths.toArray(new int[0][]);
    leafCpus = leaves.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int count(CpuTreeNode node) {
    int n = 1;
    for (CpuTreeNode child : node.children()) {
      n += count(child);
    }
    return n;
  }

  private void walk(CpuTreeNode node, int[] above, List<int[]> paths, List<Integer> leaves) {
    int i = paths.size();
    int[] here = Arrays.copyOf(above, above.length + 1);
    here[above.length] = i;
    paths.add(here);
    names[i] = node.name();
    depth[i] = above.length;
    lo[i] = leaves.size();
    if (node.children().isEmpty()) {
      node.cpus().stream().forEach(leaves::add);
    }
    for (CpuTreeNode child : node.children()) {
      walk(child, here, paths, leaves);
    }
    hi[i] = leaves.size();
  }

  /** The number of elements. */
  int size() {
    return names.length;
  }

  /** How many of {@code set}'s CPUs each element holds. */
  int[] counts(CpuSet set) {
    int[] prefix = new int[leafCpus.length + 1];
    for (int k = 0; k < leafCpus.length; k++) {
      prefix[k + 1] = prefix[k] + (set.contains(leafCpus[k]) ? 1 : 0);
    }
    int[] counts = new int[names.length];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = prefix[hi[i]] - prefix[lo[i]];
    }
    return counts;
  }

  /** The CPUs of {@code set} below element {@code i}. */
  CpuSet cpusOf(int i, CpuSet set) {
    int[] ids = new int[hi[i] - lo[i]];
    int n = 0;
    for (int k = lo[i]; k < hi[i]; k++) {
      if (set.contains(leafCpus[k])) {
        ids[n++] = leafCpus[k];
      }
    }
    return CpuSet.of(Arrays.copyOf(ids, n));
  }
}
