package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import java.util.List;
import java.util.Objects;

/**
 * One element of a {@link CpuTree}: the system, a package, a die, a NUMA node (or, in a tree split
 * for spreading on physical cores, one thread-index class of a NUMA node), an L2 cache, a core or a
 * thread.
 *
 * @param name the cri-resmgr name, e.g. {@code p0d0n1} or {@code p0d0n1cpu4t5}
 * @param level the topology level
 * @param cpus the CPUs of this element: the union of its children's CPUs
 * @param children the elements one level down, in topology order; empty for a thread
 */
public record CpuTreeNode(String name, Level level, CpuSet cpus, List<CpuTreeNode> children) {
  /** Checks for nulls and copies the list. */
  public CpuTreeNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(cpus, "cpus");
    children = List.copyOf(children);
  }

  /** An inner element whose CPUs are those of {@code children}. */
  static CpuTreeNode of(String name, Level level, List<CpuTreeNode> children) {
    CpuSet cpus = CpuSet.EMPTY;
    for (CpuTreeNode child : children) {
      cpus = cpus.union(child.cpus());
    }
    return new CpuTreeNode(name, level, cpus, children);
  }

  /** The level of a CPU tree element, from the whole system down to one hardware thread. */
  public enum Level {
    /** The whole system. */
    SYSTEM,
    /** A CPU package (socket). */
    PACKAGE,
    /** A die of a package. */
    DIE,
    /** A NUMA node of a die. */
    NUMA,
    /** The CPUs sharing an L2 cache, or a core where no L2 cache is known. */
    L2CACHE,
    /** A physical core. */
    CORE,
    /** A hardware thread (one CPU). */
    THREAD
  }
}
