package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.topologyaware.Annotations.Found;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.CpuClassNames;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The CPU class (cpu controller) of every allowed CPU, as nri-plugins' topology-aware gives them:
 * the reserved CPUs get {@code ReservedPoolCPUClass}; the exclusive CPUs of a container get its
 * {@code cpu-class} annotation, else {@code DefaultExclusiveCPUClass}; every other allowed CPU
 * (shared, idle, isolated and free) gets {@code SharedPoolCPUClass}. {@code ""} is no class, and
 * CPUs of no class are left out, so the controller leaves them alone. A released container's CPUs
 * fall back to the shared class at the next decision.
 */
final class CpuClassPlan {
  private CpuClassPlan() {}

  /** Class name to its CPUs for the grants of {@code ledger}, without the CPUs of no class. */
  static SortedMap<String, CpuSet> of(Ledger ledger, NodeState node, CpuClassNames names) {
    return of(ledger, node, names, new ClassMemo());
  }

  /**
   * As {@link #of(Ledger, NodeState, CpuClassNames)}, the containers' classes from {@code memo}.
   */
  static SortedMap<String, CpuSet> of(
      Ledger ledger, NodeState node, CpuClassNames names, ClassMemo memo) {
    TreeMap<String, CpuSet> out = new TreeMap<>();
    PoolTree tree = ledger.tree();
    add(out, names.reservedPool(), tree.reserved());
    // gathered in bit sets first: a union per grant would copy the set hundreds of times
    BitSet exclusive = new BitSet();
    Map<String, BitSet> byClass = new HashMap<>();
    int count = ledger.size();
    // only the grants with exclusive CPUs, from the ledger's index of them, not every grant
    ledger.forEachExclusive(
        g -> {
          BitSet own =
              byClass.computeIfAbsent(
                  exclusiveClass(g.cacheId(), node, names, memo, count), k -> new BitSet());
          for (int cpu = g.exclusive().next(0); cpu >= 0; cpu = g.exclusive().next(cpu + 1)) {
            exclusive.set(cpu);
            own.set(cpu);
          }
        });
    byClass.forEach((name, cpus) -> add(out, name, cpuSet(cpus)));
    add(
        out,
        names.sharedPool(),
        tree.allowed().difference(tree.reserved()).difference(cpuSet(exclusive)));
    return Collections.unmodifiableSortedMap(out);
  }

  /** The set of {@code bits}, made of its runs of consecutive ids (exclusive CPUs come in runs). */
  private static CpuSet cpuSet(BitSet bits) {
    CpuSet out = CpuSet.EMPTY;
    for (int from = bits.nextSetBit(0); from >= 0; from = bits.nextSetBit(from)) {
      int to = bits.nextClearBit(from);
      CpuSet run = CpuSet.range(from, to - 1);
      out = out.isEmpty() ? run : out.union(run);
      from = to;
    }
    return out;
  }

  /**
   * The class of the exclusive CPUs of {@code container}: its {@code cpu-class} annotation, else
   * {@code DefaultExclusiveCPUClass}.
   *
   * @throws io.criresmgr.policy.PolicyException naming the annotation if it is empty, or if it is
   *     set on a container that is not Guaranteed (only those get exclusive CPUs)
   */
  static String exclusiveClass(Pod pod, Container container, CpuClassNames names) {
    Optional<Found> found = Annotations.effective(pod, container.name(), Annotations.CPU_CLASS);
    if (found.isEmpty()) {
      return names.defaultExclusive();
    }
    String value = found.get().value().strip();
    if (value.isEmpty()) {
      throw found.get().invalid("expected the name of a CPU class of section cpu");
    }
    if (container.qosClass() != QosClass.GUARANTEED) {
      throw found
          .get()
          .invalid(
              "a CPU class is given to exclusive CPUs, which only Guaranteed containers get; "
                  + ContainerRequest.prettyName(pod, container)
                  + " is "
                  + container.qosClass());
    }
    return value;
  }

  // A grant's container is in the node state while the grant is; if not, the default class.
  private static String exclusiveClass(
      String cacheId, NodeState node, CpuClassNames names, ClassMemo memo, int grants) {
    Container c = node.containerOrNull(cacheId);
    Pod pod = c == null ? null : node.podOrNull(c.podId());
    if (c == null || pod == null) {
      return names.defaultExclusive();
    }
    return memo.cpuClass(pod, c, grants, names);
  }

  /** {@link #exclusiveClass(Pod, Container, CpuClassNames)}, the default if it is refused. */
  static String exclusiveClassOrDefault(Pod pod, Container c, CpuClassNames names) {
    try {
      return exclusiveClass(pod, c, names);
    } catch (PolicyException e) {
      return names.defaultExclusive(); // refused when allocated; here only restored
    }
  }

  private static void add(Map<String, CpuSet> out, String cpuClass, CpuSet cpus) {
    if (!cpuClass.isEmpty() && !cpus.isEmpty()) {
      out.merge(cpuClass, cpus, CpuSet::union);
    }
  }
}
