package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import java.util.Objects;
import java.util.SortedMap;

/**
 * One balloon instance: its type, instance index, CPUs and the containers in it with their CPU
 * requests.
 *
 * @param type the balloon type's name
 * @param index the instance index (lowest free index of the type when created)
 * @param cpus the balloon's CPUs
 * @param fixed whether the CPUs are the reserved ones, never resized
 * @param containers cache id to milli-CPU request, sorted by cache id
 */
public record Balloon(
    String type, int index, CpuSet cpus, boolean fixed, SortedMap<String, Long> containers) {
  /** Checks nulls and copies the containers. */
  public Balloon {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(cpus, "cpus");
    if (index < 0) {
      throw new IllegalArgumentException("negative balloon index " + index);
    }
    containers = FrozenRequests.of(containers); // shared, not copied, if already frozen
  }

  /** An empty balloon. */
  public static Balloon empty(String type, int index, CpuSet cpus, boolean fixed) {
    return new Balloon(type, index, cpus, fixed, FrozenRequests.EMPTY);
  }

  /** The pretty name {@code <type>[<index>]}. */
  public String name() {
    return type + "[" + index + "]";
  }

  /** The sum of the containers' requests in milli-CPUs. */
  public long requestMilli() {
    return ((FrozenRequests) containers).sum();
  }

  /** This balloon with other CPUs. */
  public Balloon withCpus(CpuSet value) {
    return new Balloon(type, index, value, fixed, containers);
  }

  /** This balloon with {@code cacheId} (re)added with {@code milli}. */
  public Balloon with(String cacheId, long milli) {
    SortedMap<String, Long> more = ((FrozenRequests) containers).copy();
    more.put(cacheId, milli);
    return new Balloon(type, index, cpus, fixed, FrozenRequests.adopt(more));
  }

  /** This balloon without {@code cacheId}. */
  public Balloon without(String cacheId) {
    if (!containers.containsKey(cacheId)) {
      return this;
    }
    SortedMap<String, Long> less = ((FrozenRequests) containers).copy();
    less.remove(cacheId);
    return new Balloon(type, index, cpus, fixed, FrozenRequests.adopt(less));
  }
}
