package io.criresmgr.policy.balloons;

/**
 * The order of CPU tree elements for one resize step ({@code sorterAllocate} and {@code
 * sorterRelease} of cri-resmgr's balloons policy); the smallest element is the best subtree.
 */
final class SubtreeOrder {
  private final FlatTree tree;
  final int[] current;
  final int[] free;
  private final boolean inflate;
  private final boolean balancing;

  SubtreeOrder(FlatTree tree, int[] current, int[] free, boolean inflate, boolean balancing) {
    this.tree = tree;
    this.current = current;
    this.free = free;
    this.inflate = inflate;
    this.balancing = balancing;
  }

  /** Negative if element {@code i} is the better subtree, positive if {@code j} is. */
  int compare(int i, int j) {
    if (tree.depth[i] != tree.depth[j]) {
      return Integer.compare(tree.depth[j], tree.depth[i]);
    }
    int[] pi = tree.path[i];
    int[] pj = tree.path[j];
    // Inflating: join the elements already holding most of the balloon, as high up as possible;
    // deflating: leave the elements holding least of it, to defragment.
    for (int d = 0; d < pi.length; d++) {
      int c = Integer.compare(current[pi[d]], current[pj[d]]);
      if (c != 0) {
        return inflate ? -c : c;
      }
    }
    // Balancing spreads balloons into the emptiest elements; packing keeps large free elements.
    for (int d = 0; d < pi.length; d++) {
      int c = Integer.compare(free[pi[d]], free[pj[d]]);
      if (c != 0) {
        return inflate && balancing ? -c : c;
      }
    }
    int c = tree.names[i].compareTo(tree.names[j]);
    return inflate ? c : -c;
  }
}
