package io.criresmgr.policy.cpuallocator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks CPUs from a set as cri-resmgr's CPU allocator does ({@code pkg/cpuallocator}):
 *
 * <ol>
 *   <li>whole idle packages (every online CPU of the package in the set) that fit in the count,
 *       packages with more CPUs of the preferred priority first, then by id;
 *   <li>whole idle cores (every online hyperthread free) that fit, by priority, then by id;
 *   <li>single threads: from packages with more CPUs already taken by steps 1-2, then with more
 *       free CPUs of the preferred priority (the tighter fit if both have enough), then by package
 *       id; within a package, CPUs of the preferred priority first, then those whose core has fewer
 *       free threads left, then by id.
 * </ol>
 *
 * <p>The same input always gives the same CPUs. End-to-end tests pin exact CPU ids (cri-resmgr's
 * e2e suites), so the order follows the last cri-resmgr release, including its quirks: the
 * single-thread order is decided once, before taking any thread, and NUMA nodes and dies play no
 * part. One deliberate difference: that release computes priority classes but never stores them, so
 * its comparisons by priority always tie. Here priorities apply (as in nri-plugins), but only where
 * they tell CPUs apart: when every CPU is in the same class (any machine without cpufreq
 * differences, such as the e2e VMs), priorities are ignored, which gives cri-resmgr's choices.
 *
 * <p>Immutable and thread-safe; construction is linear in the number of CPUs, an allocation is O(n
 * log n) in the CPUs of one package and allocates a few arrays of the topology's size.
 */
public final class CpuAllocator {
  private static final Logger log = LoggerFactory.getLogger(CpuAllocator.class);

  private final Map<CpuPriority, CpuSet> priorities;
  private final Layout layout;

  /** An allocator for {@code topology}; CPU priority classes are derived from it once. */
  public CpuAllocator(SystemTopology topology) {
    this(topology, PriorityDiscovery.discover(Objects.requireNonNull(topology, "topology")));
  }

  /**
   * An allocator with the given priority classes instead of discovered ones (as cri-resmgr's unit
   * test fakes them). CPUs in no class have no priority.
   *
   * @throws IllegalArgumentException for {@link CpuPriority#NONE} or classes that overlap
   */
  CpuAllocator(SystemTopology topology, Map<CpuPriority, CpuSet> priorities) {
    Objects.requireNonNull(topology, "topology");
    this.priorities = checkClasses(priorities);
    this.layout = new Layout(topology, distinguishing(this.priorities, topology.onlineCpus()));
    log.debug("CPU priorities: {}", this.priorities);
  }

  /** The classes, or none if one class holds every online CPU (then priorities cannot matter). */
  private static Map<CpuPriority, CpuSet> distinguishing(
      Map<CpuPriority, CpuSet> classes, CpuSet online) {
    boolean uniform = classes.values().stream().anyMatch(cpus -> cpus.containsAll(online));
    return uniform ? Map.of() : classes;
  }

  private static Map<CpuPriority, CpuSet> checkClasses(Map<CpuPriority, CpuSet> given) {
    if (given.containsKey(CpuPriority.NONE)) {
      throw new IllegalArgumentException("NONE is not a CPU priority class");
    }
    Map<CpuPriority, CpuSet> classes = new EnumMap<>(CpuPriority.class);
    CpuSet seen = CpuSet.EMPTY;
    for (CpuPriority prio :
        new CpuPriority[] {CpuPriority.HIGH, CpuPriority.NORMAL, CpuPriority.LOW}) {
      CpuSet cpus = given.getOrDefault(prio, CpuSet.EMPTY);
      if (cpus.intersects(seen)) {
        throw new IllegalArgumentException(
            "CPU priority classes overlap: " + cpus.intersection(seen) + " in " + prio + " again");
      }
      seen = seen.union(cpus);
      classes.put(prio, cpus);
    }
    return Collections.unmodifiableMap(classes);
  }

  /**
   * Picks {@code count} CPUs of {@code from}: all of them if it has exactly {@code count}, none for
   * 0.
   *
   * @param prefer the priority class to prefer; {@link CpuPriority#NONE} ignores priorities
   * @throws PolicyException if {@code from} has fewer than {@code count} CPUs, or fewer online ones
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public CpuSet allocate(CpuSet from, int count, CpuPriority prefer) {
    Objects.requireNonNull(prefer, "prefer");
    checkCount("allocate", from, count);
    if (from.size() == count) {
      return from;
    }
    if (count == 0) {
      return CpuSet.EMPTY;
    }
    Selection selection = new Selection(layout, from, count, prefer);
    if (selection.available() < count) {
      throw new PolicyException(
          String.format(
              "cannot allocate %d CPUs from %s: only %d of them are online",
              count, from, selection.available()));
    }
    CpuSet picked = CpuSet.of(selection.run());
    log.debug("allocated {} CPUs from {} preferring {}: {}", count, from, prefer, picked);
    return picked;
  }

  /**
   * Picks {@code count} CPUs of {@code from} to give back: keeps the {@code |from| - count} CPUs
   * that {@link #allocate} would pick and returns the rest.
   *
   * @throws PolicyException if {@code from} has fewer than {@code count} CPUs
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public CpuSet release(CpuSet from, int count, CpuPriority prefer) {
    checkCount("release", from, count);
    return from.difference(allocate(from, from.size() - count, prefer));
  }

  private static void checkCount(String verb, CpuSet from, int count) {
    Objects.requireNonNull(from, "from");
    if (count < 0) {
      throw new IllegalArgumentException("cannot " + verb + " a negative number of CPUs: " + count);
    }
    if (from.size() < count) {
      throw new PolicyException(
          String.format(
              "cannot %s %d CPUs: only %d available in %s",
              verb, count, from.size(), from.isEmpty() ? "the empty set" : from));
    }
  }

  /** The CPUs of each priority class HIGH, NORMAL and LOW ({@link CpuPriority#NONE} excluded). */
  public Map<CpuPriority, CpuSet> priorities() {
    return priorities;
  }

  /**
   * One hyperthread per core of {@code cpus}: the lowest id of each core among {@code cpus}. CPUs
   * that are not online are kept, each as a core of its own.
   */
  public CpuSet oneThreadPerCore(CpuSet cpus) {
    boolean[] seen = new boolean[layout.coreCpus.length];
    int[] ids = cpus.stream().toArray();
    int kept = 0;
    for (int id : ids) {
      int i = layout.indexOf(id);
      if (i < 0 || !seen[layout.coreOf[i]]) {
        ids[kept++] = id;
      }
      if (i >= 0) {
        seen[layout.coreOf[i]] = true;
      }
    }
    return CpuSet.of(Arrays.copyOf(ids, kept));
  }
}
