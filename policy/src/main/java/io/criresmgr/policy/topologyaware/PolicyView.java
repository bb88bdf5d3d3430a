package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.policy.PolicyMetrics.Gauge;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The policy's state for {@code /introspect} and {@code /metrics}. */
final class PolicyView {
  /** Prefix of the policy's gauge names. */
  static final String PREFIX = "cri_resmgr_topology_aware_";

  private PolicyView() {}

  /**
   * {@code {"pools": [{id, name, kind, parent, children, capacity, free, grants}], "allocations":
   * {...}, "options": {...}}}.
   */
  static JsonNode introspect(Ledger ledger, TopologyAwareOptions options) {
    ObjectNode view = JsonNodeFactory.instance.objectNode();
    ArrayNode pools = view.putArray("pools");
    for (Pool p : ledger.tree().pools()) {
      pools.add(pool(ledger, p));
    }
    view.set(GrantJson.ALLOCATIONS, ledger.policyData().get(GrantJson.ALLOCATIONS));
    ObjectNode opts = view.putObject("options");
    opts.put("PinCPU", options.pinCpu());
    opts.put("PinMemory", options.pinMemory());
    opts.put("PreferIsolatedCPUs", options.preferIsolatedCpus());
    putSharedCpus(opts, options.preferSharedCpus());
    opts.put("ColocatePods", options.colocatePods());
    opts.put("ColocateNamespaces", options.colocateNamespaces());
    options.reservedPoolNamespaces().forEach(opts.putArray("ReservedPoolNamespaces")::add);
    opts.put("ReservedPoolCPUClass", options.cpuClasses().reservedPool());
    opts.put("SharedPoolCPUClass", options.cpuClasses().sharedPool());
    opts.put("DefaultExclusiveCPUClass", options.cpuClasses().defaultExclusive());
    return view;
  }

  // As configured: true, false or "fractional".
  private static void putSharedCpus(ObjectNode opts, TopologyAwareOptions.SharedCpus shared) {
    if (shared == TopologyAwareOptions.SharedCpus.FRACTIONAL) {
      opts.put("PreferSharedCPUs", "fractional");
    } else {
      opts.put("PreferSharedCPUs", shared == TopologyAwareOptions.SharedCpus.ALL);
    }
  }

  private static ObjectNode pool(Ledger ledger, Pool p) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("id", p.id());
    n.put("name", p.name());
    n.put("kind", p.kind().name().toLowerCase(java.util.Locale.ROOT));
    n.put("parent", p.isRoot() ? "" : ledger.tree().pool(p.parent()).name());
    ArrayNode children = n.putArray("children");
    p.children().forEach(c -> children.add(ledger.tree().pool(c).name()));
    ObjectNode cap = n.putObject("capacity");
    cap.put("isolated", p.isolated().toString());
    cap.put("reserved", p.reserved().toString());
    cap.put("sharable", p.sharable().toString());
    memory(cap.putObject("memory"), p.memory());
    cap.put("memset", p.memset().toString());
    ObjectNode free = n.putObject("free");
    free.put("isolated", ledger.freeIsolated(p.id()).toString());
    free.put("sharable", ledger.freeSharable(p.id()).toString());
    free.put("sharedMilli", ledger.allocatableShared(p.id()));
    free.put("reservedMilli", ledger.allocatableReserved(p.id()));
    memory(free.putObject("memory"), ledger.freeMemory(p.id()));
    memory(free.putObject("extraMemoryReservations"), ledger.extraMemory(p.id()));
    ArrayNode grants = n.putArray("grants");
    for (Grant g : ledger.grants()) {
      if (g.pool() == p.id()) {
        grants.add(g.cacheId());
      }
    }
    return n;
  }

  private static void memory(ObjectNode into, Memory m) {
    for (MemoryType t : MemoryType.values()) {
      into.put(t.label(), m.get(t));
    }
  }

  /**
   * Per pool: shared capacity left (milli-CPUs), exclusive CPUs still available (free isolated CPUs
   * plus whole CPUs that can be sliced without exhausting the shared capacity), and granted
   * containers.
   */
  static List<Gauge> gauges(Ledger ledger, String policy) {
    int[] granted = new int[ledger.tree().size()];
    ledger.grants().forEach(g -> granted[g.pool()]++);
    List<Gauge> out = new ArrayList<>();
    for (Pool p : ledger.tree().pools()) {
      Map<String, String> labels = Map.of("policy", policy, "pool", p.name());
      long shared = ledger.allocatableShared(p.id());
      long sliceable = shared > 0 ? (shared - 1) / 1000 : 0;
      out.add(
          new Gauge(
              PREFIX + "shared_capacity_milli",
              "Shared milli-CPUs a pool can still grant",
              labels,
              shared));
      out.add(
          new Gauge(
              PREFIX + "free_exclusive_cpus",
              "CPUs a pool can still grant exclusively (free isolated plus sliceable)",
              labels,
              ledger.freeIsolated(p.id()).size() + sliceable));
      out.add(
          new Gauge(
              PREFIX + "granted_containers",
              "Containers whose CPUs come from a pool",
              labels,
              granted[p.id()]));
    }
    return out;
  }
}
