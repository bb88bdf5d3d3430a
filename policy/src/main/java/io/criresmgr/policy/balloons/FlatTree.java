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

  /** The parent of each element, -1 for the root. */
  private final int[] parent;

  /** Whether each element has no children: only those hold leaf positions of their own. */
  private final boolean[] leaf;

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
    parent = new int[size];
    leaf = new boolean[size];
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
    parent[i] = above.length == 0 ? -1 : above[above.length - 1];
    leaf[i] = node.children().isEmpty();
    lo[i] = leaves.size();
    if (leaf[i]) {
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

  /**
   * How many of {@code set}'s CPUs each element holds: childless elements count their leaves, and
   * each element adds its count to its parent's, children first (they come after their parent in
   * preorder), so that no array but the result is made.
   */
  int[] counts(CpuSet set) {
    int[] counts = new int[names.length];
    for (int i = counts.length - 1; i >= 0; i--) {
      if (leaf[i]) {
        for (int k = lo[i]; k < hi[i]; k++) {
          if (set.contains(leafCpus[k])) {
            counts[i]++;
          }
        }
      }
      if (parent[i] >= 0) {
        counts[parent[i]] += counts[i];
      }
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
