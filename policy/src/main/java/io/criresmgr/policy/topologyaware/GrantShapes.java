package io.criresmgr.policy.topologyaware;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Values by grant shape, for one decision's loop over hundreds of containers whose grants mostly
 * have a handful of shapes (one per pool and request), often in runs: the last shape met and the
 * first few are compared field by field in arrays, more go into a map, so that no key object is
 * made per container. What a shape is (which fields of a grant) is the caller's: {@code same}
 * compares two grants' shapes, {@code key} makes the map's key of a shape.
 */
final class GrantShapes<K, V> {
  private static final int FEW = 8;
  private final BiPredicate<Grant, Grant> same;
  private final Function<Grant, K> key;
  private final Grant[] grants = new Grant[FEW];
  private final List<V> values = new ArrayList<>(FEW);
  private int last = -1;
  private @Nullable Map<K, V> more;

  GrantShapes(BiPredicate<Grant, Grant> same, Function<Grant, K> key) {
    this.same = same;
    this.key = key;
  }

  /** The value of a grant of {@code g}'s shape, or null if none was put. */
  @Nullable V get(Grant g) {
    if (last >= 0 && same.test(grants[last], g)) {
      return values.get(last);
    }
    for (int i = 0; i < values.size(); i++) {
      if (same.test(grants[i], g)) {
        last = i;
        return values.get(i);
      }
    }
    return more == null ? null : more.get(key.apply(g));
  }

  /** Remembers {@code value} as the value of {@code g}'s shape. */
  void put(Grant g, V value) {
    int i = values.size();
    if (i < FEW) {
      grants[i] = g;
      values.add(value);
      last = i;
      return;
    }
    if (more == null) {
      more = new HashMap<>();
    }
    more.put(key.apply(g), value);
  }
}
