package io.criresmgr.policy.balloons;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The read-only containers of a {@link Balloon} (cache id to milli-CPU request): a {@link TreeMap}
 * no one else holds, so a balloon made from another one's map shares it instead of copying it
 * (every resize of a balloon with hundreds of containers copied them before), and its identity
 * tells that the containers did not change ({@link BalloonState}'s JSON of them is reused).
 */
@SuppressWarnings("JdkObsolete") // Balloon.containers is a SortedMap
final class FrozenRequests extends AbstractMap<String, Long> implements SortedMap<String, Long> {
  static final FrozenRequests EMPTY = new FrozenRequests(new TreeMap<>());

  private final SortedMap<String, Long> view;
  private volatile long sum = -1; // -1: not computed yet (a negative sum is computed each time)

  private FrozenRequests(SortedMap<String, Long> owned) {
    this.view = Collections.unmodifiableSortedMap(owned);
  }

  /** {@code map} itself if it is frozen, else a frozen copy. */
  static FrozenRequests of(SortedMap<String, Long> map) {
    if (map instanceof FrozenRequests frozen) {
      return frozen;
    }
    return map.isEmpty() ? EMPTY : new FrozenRequests(new TreeMap<>(map));
  }

  /** Freezes {@code owned}, which the caller made and must not change or hand out afterwards. */
  static FrozenRequests adopt(SortedMap<String, Long> owned) {
    return owned.isEmpty() ? EMPTY : new FrozenRequests(owned);
  }

  /** A mutable copy. */
  SortedMap<String, Long> copy() {
    return new TreeMap<>(view);
  }

  /** The sum of the requests, computed once. */
  long sum() {
    long s = sum;
    if (s < 0) {
      s = 0;
      for (long milli : view.values()) {
        s += milli;
      }
      sum = s;
    }
    return s;
  }

  @Override
  public Collection<Long> values() {
    return view.values(); // no read-only wrapper per entry, as AbstractMap's would make
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super Long> action) {
    view.forEach(action);
  }

  @Override
  public Set<Entry<String, Long>> entrySet() {
    return view.entrySet();
  }

  @Override
  public Set<String> keySet() {
    return view.keySet();
  }

  @Override
  public int size() {
    return view.size();
  }

  @Override
  public boolean containsKey(@Nullable Object key) {
    return view.containsKey(key);
  }

  @Override
  public @Nullable Long get(@Nullable Object key) {
    return view.get(key);
  }

  @Override
  public @Nullable Comparator<? super String> comparator() {
    return view.comparator();
  }

  @Override
  public SortedMap<String, Long> subMap(String fromKey, String toKey) {
    return view.subMap(fromKey, toKey);
  }

  @Override
  public SortedMap<String, Long> headMap(String toKey) {
    return view.headMap(toKey);
  }

  @Override
  public SortedMap<String, Long> tailMap(String fromKey) {
    return view.tailMap(fromKey);
  }

  @Override
  public String firstKey() {
    return view.firstKey();
  }

  @Override
  public String lastKey() {
    return view.lastKey();
  }
}
