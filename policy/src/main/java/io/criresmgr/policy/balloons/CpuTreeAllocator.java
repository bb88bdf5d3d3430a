package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the CPUs a balloon gains when it inflates or loses when it deflates, as cri-resmgr's and
 * nri-plugins' balloons policy does ({@code cputree.go}, {@code ResizeCpus}, with the implicit
 * device hints of {@code PreferIsolCpus} and {@code PreferCoreType}, the devices of {@code
 * PreferCloseToDevices} and the CPUs that load classes avoid):
 *
 * <ol>
 *   <li>trivial cases: nothing to do, or all free CPUs wanted, or all current CPUs released;
 *   <li>the type's {@link CpuPreferences}: inflating narrows the free CPUs hint by hint while
 *       enough remain, then drops the CPUs its loads avoid if enough remain; deflating releases the
 *       least wanted CPUs and leaves to the tree only the choice among equally wanted ones
 *       (nri-plugins' {@code resizeCpusWithDevices});
 *   <li>deflating, and inflating with {@code preferSpreadOnPhysicalCores}, go one CPU at a time;
 *   <li>the subtree: among the tree elements with enough free CPUs (inflate) or current CPUs
 *       (deflate), the deepest, then by the balloon's CPU counts along the path from the root (more
 *       first to inflate, fewer first to deflate), then by free CPU counts along the path (more
 *       first with topology balancing, fewer first otherwise and always when deflating), then by
 *       name (ascending to inflate, descending to deflate);
 *   <li>the exact CPUs of that subtree: {@link CpuAllocator#allocate} or {@link
 *       CpuAllocator#release} with the options' priority.
 * </ol>
 *
 * <p>Immutable and thread-safe; the same input always gives the same CPUs. One resize costs
 * O(elements × depth) per CPU taken one at a time, and O(elements × depth) otherwise.
 */
public final class CpuTreeAllocator {
  private static final Logger log = LoggerFactory.getLogger(CpuTreeAllocator.class);

  private final FlatTree tree;
  private final CpuAllocator allocator;
  private final CpuTreeOptions options;

  /**
   * An allocator over {@code tree}, split by thread index if {@code options} prefer spreading on
   * physical cores.
   *
   * @param allocator picks the exact CPUs within the chosen subtree
   */
  public CpuTreeAllocator(CpuTree tree, CpuAllocator allocator, CpuTreeOptions options) {
    Objects.requireNonNull(tree, "tree");
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    this.options = Objects.requireNonNull(options, "options");
    this.tree = new FlatTree(options.preferSpreadOnPhysicalCores() ? tree.splitThreads() : tree);
  }

  /** The options. */
  public CpuTreeOptions options() {
    return options;
  }

  /**
   * The CPUs to add to {@code current} (delta &gt; 0, taken from {@code free}) or to remove from it
   * (delta &lt; 0); empty for 0.
   *
   * @param current the balloon's CPUs
   * @param free the CPUs no balloon holds, disjoint from {@code current}
   * @param delta how many CPUs to add (positive) or remove (negative)
   * @throws PolicyException if {@code free} has fewer than {@code delta} CPUs ({@code not enough
   *     free CPUs}) or {@code current} fewer than {@code -delta}
   * @throws IllegalArgumentException if {@code current} and {@code free} overlap
   */
  public CpuSet resize(CpuSet current, CpuSet free, int delta) {
    return resize(current, free, delta, CpuSet.EMPTY);
  }

  /**
   * The CPUs to add or remove as {@link #resize(CpuSet, CpuSet, int)}; inflating, after the type's
   * preferences, also avoids {@code avoid} (the cores or L2 caches of balloon loads) while enough
   * other free CPUs remain.
   */
  public CpuSet resize(CpuSet current, CpuSet free, int delta, CpuSet avoid) {
    Objects.requireNonNull(avoid, "avoid");
    CpuSet from = candidates(current, free, delta, avoid);
    CpuSet picked =
        delta >= 0
            ? allocator.allocate(from, delta, options.priority())
            : allocator.release(from, -delta, options.priority());
    log.debug("resize {} by {} (free {}): {}", current, delta, free, picked);
    return picked;
  }

  /**
   * The CPUs of the chosen subtree, as {@code ResizeCpus} returns them: free CPUs to add {@code
   * delta} from, or current CPUs to remove {@code -delta} from. Exactly {@code |delta|} CPUs except
   * when inflating into a subtree without spreading on physical cores.
   */
  CpuSet candidates(CpuSet current, CpuSet free, int delta) {
    return candidates(current, free, delta, CpuSet.EMPTY);
  }

  private CpuSet candidates(CpuSet current, CpuSet free, int delta, CpuSet avoid) {
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(free, "free");
    if (current.intersects(free)) {
      throw new IllegalArgumentException(
          "current CPUs " + current + " and free CPUs " + free + " overlap");
    }
    if (delta > 0) {
      return inflate(current, free, delta, avoid);
    }
    if (delta < 0) {
      return deflate(current, free, -delta);
    }
    return CpuSet.EMPTY;
  }

  private CpuSet inflate(CpuSet current, CpuSet free, int count, CpuSet avoid) {
    if (free.size() < count) {
      throw notEnoughFree(current, free, count);
    }
    if (free.size() == count) {
      return free;
    }
    CpuSet narrowed = options.preferences().narrow(free, count);
    CpuSet away = avoid.isEmpty() ? narrowed : narrowed.difference(avoid); // no copy if none
    return inflateTree(current, away.size() >= count ? away : narrowed, count);
  }

  private CpuSet inflateTree(CpuSet current, CpuSet free, int count) {
    CpuSet subtree = subtree(current, free, count, true);
    if (!options.preferSpreadOnPhysicalCores() || subtree.size() == count) {
      return subtree;
    }
    // CPUs of one subtree are not equally good when spreading: a core's second thread should
    // wait until every core has one taken, so choose each CPU after the previous ones.
    CpuSet added = CpuSet.EMPTY;
    for (int n = 0; n < count; n++) {
      CpuSet one = subtree(current.union(added), free.difference(added), 1, true);
      added = added.union(one);
    }
    return added;
  }

  private CpuSet deflate(CpuSet current, CpuSet free, int count) {
    if (current.size() < count) {
      throw new PolicyException(
          String.format(
              "not enough current CPUs: cannot release %d CPUs of %d (%s)",
              count, current.size(), current));
    }
    if (current.size() == count) {
      return current;
    }
    if (options.preferences().isEmpty()) {
      return deflateTree(current, free, count);
    }
    return deflatePreferred(current, free, count);
  }

  /**
   * Releases the CPUs the type wants least: every CPU whose {@link CpuPreferences#weight} is below
   * that of the {@code count}-th least wanted CPU, then as many as still needed among the CPUs of
   * exactly that weight, chosen by the tree.
   */
  private CpuSet deflatePreferred(CpuSet current, CpuSet free, int count) {
    CpuPreferences prefs = options.preferences();
    int boundary = current.stream().map(prefs::weight).sorted().toArray()[count - 1];
    CpuSet surely = CpuSet.of(current.stream().filter(c -> prefs.weight(c) < boundary).toArray());
    CpuSet maybe = CpuSet.of(current.stream().filter(c -> prefs.weight(c) == boundary).toArray());
    int rest = count - surely.size();
    return surely.union(rest == maybe.size() ? maybe : deflateTree(maybe, free, rest));
  }

  private CpuSet deflateTree(CpuSet current, CpuSet free, int count) {
    // Releasing one CPU at a time lets each release defragment what the previous ones left.
    CpuSet removed = CpuSet.EMPTY;
    for (int n = 0; n < count; n++) {
      CpuSet one = subtree(current.difference(removed), free.union(removed), 1, false);
      removed = removed.union(one);
    }
    return removed;
  }

  /** The free (inflate) or current (deflate) CPUs of the best subtree for {@code count} CPUs. */
  private CpuSet subtree(CpuSet current, CpuSet free, int count, boolean inflate) {
    SubtreeOrder order =
        new SubtreeOrder(
            tree, tree.counts(current), tree.counts(free), inflate, options.topologyBalancing());
    int[] enough = inflate ? order.free : order.current;
    int best = -1;
    for (int i = 0; i < tree.size(); i++) {
      if (enough[i] >= count && (best < 0 || order.compare(i, best) < 0)) {
        best = i;
      }
    }
    if (best < 0) {
      if (inflate) {
        throw notEnoughFree(current, free, count);
      }
      throw new PolicyException(
          "not enough current CPUs in the CPU tree: cannot release " + count + " of " + current);
    }
    return tree.cpusOf(best, inflate ? free : current);
  }

  private static PolicyException notEnoughFree(CpuSet current, CpuSet free, int count) {
    return new PolicyException(
        String.format(
            "not enough free CPUs: wanted %d more to grow from %d to %d CPUs, %d available (%s)",
            count,
            current.size(),
            current.size() + count,
            free.size(),
            free.isEmpty() ? "none" : free));
  }
}
