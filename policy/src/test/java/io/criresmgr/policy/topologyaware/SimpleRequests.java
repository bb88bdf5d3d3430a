package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.cache.affinity.Affinities;
import io.criresmgr.cache.affinity.Affinity;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.MemoryType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A test stand-in for the request derivation of cri-resmgr (docs/policy/topology-aware.md, "How a
 * request becomes a grant") without annotations: kube-system is reserved, BestEffort and Burstable
 * share, Guaranteed takes whole CPUs exclusively as cri-resmgr does by default; memory of every
 * type. Tests adjust single containers' requests by name.
 */
final class SimpleRequests implements RequestSource {
  private final TopologyAwareOptions options;
  private final Map<String, UnaryOperator<CpuRequest>> cpu = new HashMap<>();
  private final Map<String, UnaryOperator<MemoryRequest>> memory = new HashMap<>();

  SimpleRequests(TopologyAwareOptions options) {
    this.options = options;
  }

  /** Changes the CPU request of containers named {@code name}. */
  SimpleRequests cpu(String name, UnaryOperator<CpuRequest> change) {
    cpu.put(name, change);
    return this;
  }

  /** Changes the memory request of containers named {@code name}. */
  SimpleRequests memory(String name, UnaryOperator<MemoryRequest> change) {
    memory.put(name, change);
    return this;
  }

  @Override
  public CpuRequest cpu(Container c, Pod pod) {
    return cpu.getOrDefault(c.name(), UnaryOperator.identity()).apply(derive(c));
  }

  private CpuRequest derive(Container c) {
    long req = c.resources().cpuRequestMilli();
    if (c.namespace().equals("kube-system")) {
      return cpu(CpuKind.RESERVED, 0, req, false);
    }
    if (c.qosClass() != QosClass.GUARANTEED) {
      return cpu(CpuKind.NORMAL, 0, c.qosClass() == QosClass.BURSTABLE ? req : 0, false);
    }
    int cores = (int) (req / 1000);
    long frac = req % 1000;
    if (cores == 0) {
      return cpu(CpuKind.NORMAL, 0, frac, false);
    }
    if (cores == 1) {
      return cpu(CpuKind.NORMAL, 1, frac, options.preferIsolatedCpus());
    }
    return frac > 0 ? cpu(CpuKind.NORMAL, 0, req, false) : cpu(CpuKind.NORMAL, cores, 0, false);
  }

  static CpuRequest cpu(CpuKind kind, int full, long fraction, boolean isolate) {
    return new CpuRequest(kind, full, fraction, isolate, false, CpuPriority.NONE, false, 0);
  }

  @Override
  public MemoryRequest memory(Container c, Pod pod) {
    Resources r = c.resources();
    long bytes =
        switch (c.qosClass()) {
          case GUARANTEED -> r.memoryLimitBytes();
          case BURSTABLE -> r.memoryRequestBytes();
          case BEST_EFFORT -> 0;
        };
    long limit = c.qosClass() == QosClass.BEST_EFFORT ? 0 : r.memoryLimitBytes();
    MemoryRequest m =
        new MemoryRequest(EnumSet.allOf(MemoryType.class), bytes, limit, Duration.ZERO, false);
    return memory.getOrDefault(c.name(), UnaryOperator.identity()).apply(m);
  }

  /** {@code m} restricted to {@code types}. */
  static MemoryRequest types(MemoryRequest m, Set<MemoryType> types) {
    return new MemoryRequest(types, m.bytes(), m.limitBytes(), m.coldStart(), m.preserve());
  }

  @Override
  public List<Affinity> affinities(Container c, Pod pod) {
    return Affinities.of(c, pod);
  }
}
