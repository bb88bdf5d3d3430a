package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What the previous {@link BalloonAssignments#decide} call found for each container, and how the
 * inputs of this call differ from that call's, so that a container whose inputs did not change
 * keeps its result without being worked out again. A container's wanted assignment and whether it
 * needs an update depend only on the container object (its assignment and state included), its pod
 * object (its annotations), the balloon holding it (the last one in the list with its cache id) and
 * that balloon's type, containers map (its request) and CPUs with the shared idle ones; records are
 * immutable, so an identical object has identical content. The result of the previous call is kept
 * only if all of these are unchanged; it is the previous call's, whether the pipeline applied that
 * decision or rolled it back, since both calls' inputs are compared as they were, not as applied.
 *
 * <p>Per call: positions {@code 0..n-1} of the balloon list compared with the previous call's (a
 * balloon is unchanged if its type, containers map (identity: it is frozen, {@link FrozenRequests})
 * and CPUs with the shared idle ones are); the entries of the containers of changed balloons marked
 * (O(their containers)); the pods that changed found by a walk of both pod lists (sorted by id)
 * comparing objects, none if the node hands out the very same list (an immutable one, which the
 * cache keeps until a pod changes). Not thread-safe: one per policy, used on the pipeline thread.
 */
final class KnownAssignments {
  /** One container's (or balloon member's) state. */
  static final class Entry {
    /** The call that computed {@link #container} to {@link #update}; -1 if none can be used. */
    long seen = -1;

    @Nullable Container container;

    /** The pod id of {@link #container} and its hash (compared without reading the string). */
    @Nullable String podId;

    int podHash;

    /** The position of the balloon that held it in that call, -1 if none. */
    int position = -1;

    long milli;

    /** Its annotated overrides, null if not worked out or malformed. */
    @Nullable PinningOverrides overrides;

    @Nullable Assignment wanted;
    boolean update;

    /** The call in which a changed balloon holds it, at {@link #changedPosition}. */
    long changedIn = -1;

    int changedPosition;
    long changedMilli;

    /** Whether {@code c} is of the pod of {@link #container}. */
    @SuppressWarnings("ReferenceEquality") // mostly the very string: not read then
    boolean samePod(Container c) {
      return podId != null && (podId == c.podId() || podId.equals(c.podId()));
    }

    /** Sets {@link #container} and its pod id. */
    @SuppressWarnings("ReferenceEquality") // mostly the very string: not hashed again then
    void container(Container c) {
      container = c;
      if (podId != c.podId()) {
        podId = c.podId();
        podHash = c.podId().hashCode();
      }
    }
  }

  private final Map<String, Entry> entries = new HashMap<>();
  private long call;
  private List<Balloon> balloons = List.of();
  private CpuSet[] cpus = new CpuSet[0];
  private @Nullable Assignment[] plain = new Assignment[0];
  private boolean[] unchanged = new boolean[0];
  private List<Pod> pods = List.of();
  private final Set<String> changedPods = new HashSet<>();
  private int[] changedHashes = new int[0];

  /**
   * Starts a call over {@code now} (whose containers get {@code cpusNow}, their own and shared idle
   * CPUs) and the node's {@code podsNow} (sorted by id); {@code containers} is the node's number of
   * containers, to forget entries of removed ones now and then.
   */
  void begin(List<Balloon> now, CpuSet[] cpusNow, List<Pod> podsNow, int containers) {
    if (entries.size() > 2 * containers + 64) {
      entries.clear(); // removed containers: forget them all now and then
    }
    call++;
    @Nullable Assignment[] plainNow = new Assignment[now.size()];
    boolean[] same = new boolean[now.size()];
    for (int p = 0; p < now.size(); p++) {
      same[p] = p < balloons.size() && same(now.get(p), cpusNow[p], balloons.get(p), cpus[p]);
      if (same[p]) {
        plainNow[p] = plain[p];
      } else {
        mark(now.get(p), p);
      }
    }
    balloons = now;
    cpus = cpusNow;
    plain = plainNow;
    unchanged = same;
    changedPods.clear();
    if (podsNow != pods) {
      diff(pods, podsNow, changedPods);
      pods = podsNow;
    }
    changedHashes = changedPods.stream().mapToInt(String::hashCode).toArray();
  }

  /** Whether balloon {@code b} with {@code cpus} gives its containers what {@code old} did. */
  private static boolean same(Balloon b, CpuSet cpus, Balloon old, CpuSet oldCpus) {
    return b.containers() == old.containers()
        && b.type().equals(old.type())
        && cpus.equals(oldCpus);
  }

  /** Marks the containers of the changed balloon {@code b} at {@code p}: the last one wins. */
  private void mark(Balloon b, int p) {
    for (Map.Entry<String, Long> c : b.containers().entrySet()) {
      Entry e = entries.computeIfAbsent(c.getKey(), id -> new Entry());
      e.changedIn = call;
      e.changedPosition = p;
      e.changedMilli = c.getValue();
    }
  }

  /** Adds the ids of the pods that differ between {@code old} and {@code now} to {@code out}. */
  @SuppressWarnings("ReferenceEquality") // identity is the point: an unchanged pod is the same one
  static void diff(List<Pod> old, List<Pod> now, Set<String> out) {
    int i = 0;
    int j = 0;
    while (i < old.size() && j < now.size()) {
      Pod a = old.get(i);
      Pod b = now.get(j);
      if (a == b) {
        i++;
        j++;
        continue;
      }
      int order = a.id().compareTo(b.id());
      if (order <= 0) {
        out.add(a.id());
        i++;
      }
      if (order >= 0) {
        out.add(b.id());
        j++;
      }
    }
    for (; i < old.size(); i++) {
      out.add(old.get(i).id());
    }
    for (; j < now.size(); j++) {
      out.add(now.get(j).id());
    }
  }

  /** The entry of {@code cacheId}, made if new. */
  Entry entry(String cacheId) {
    Entry e = entries.get(cacheId);
    if (e == null) {
      e = new Entry();
      entries.put(cacheId, e);
    }
    return e;
  }

  /** The number of the current call. */
  long call() {
    return call;
  }

  /** Whether there is a balloon at {@code p} and it is as in the previous call. */
  boolean unchanged(int p) {
    return p < unchanged.length && unchanged[p];
  }

  /**
   * Whether the pod of {@code e}'s container changed (or came or went) since the previous call: the
   * few changed pods' hashes first, so that most containers' pod ids are not read.
   */
  boolean podChanged(Entry e) {
    String podId = e.podId;
    if (podId == null) {
      return true;
    }
    for (int h : changedHashes) {
      if (h == e.podHash && changedPods.contains(podId)) {
        return true;
      }
    }
    return false;
  }

  /** The remembered assignment of a container of the balloon at {@code p} without overrides. */
  @Nullable Assignment plain(int p) {
    return plain[p];
  }

  /** Remembers {@code a} as the assignment of {@code p}'s containers without overrides. */
  void plain(int p, Assignment a) {
    plain[p] = a;
  }

  /** Forgets everything: the next call works out every container (after a failed call). */
  void reset() {
    entries.clear();
    balloons = List.of();
    cpus = new CpuSet[0];
    plain = new Assignment[0];
    unchanged = new boolean[0];
    pods = List.of();
    changedPods.clear();
    changedHashes = new int[0];
  }

  /** How many entries are kept (for tests). */
  int size() {
    return entries.size();
  }

  /** The positions of the balloons that changed in this call (for tests and logs). */
  List<Integer> changed() {
    List<Integer> out = new ArrayList<>();
    for (int p = 0; p < unchanged.length; p++) {
      if (!unchanged[p]) {
        out.add(p);
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "KnownAssignments" + Arrays.toString(unchanged);
  }
}
