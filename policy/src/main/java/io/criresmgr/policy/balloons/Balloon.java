package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

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
    containers = Collections.unmodifiableSortedMap(new TreeMap<>(containers));
  }

  /** An empty balloon. */
  public static Balloon empty(String type, int index, CpuSet cpus, boolean fixed) {
    return new Balloon(type, index, cpus, fixed, new TreeMap<>());
  }

  /** The pretty name {@code <type>[<index>]}. */
  public String name() {
    return type + "[" + index + "]";
  }

  /** The sum of the containers' requests in milli-CPUs. */
  public long requestMilli() {
    return containers.values().stream().mapToLong(Long::longValue).sum();
  }

  /** This balloon with other CPUs. */
  public Balloon withCpus(CpuSet value) {
    return new Balloon(type, index, value, fixed, containers);
  }

  /** This balloon with {@code cacheId} (re)added with {@code milli}. */
  public Balloon with(String cacheId, long milli) {
    TreeMap<String, Long> more = new TreeMap<>(containers);
    more.put(cacheId, milli);
    return new Balloon(type, index, cpus, fixed, more);
  }

  /** This balloon without {@code cacheId}. */
  public Balloon without(String cacheId) {
    TreeMap<String, Long> less = new TreeMap<>(containers);
    less.remove(cacheId);
    return new Balloon(type, index, cpus, fixed, less);
  }
}
