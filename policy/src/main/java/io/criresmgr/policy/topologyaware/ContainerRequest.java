package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import java.util.Objects;

/**
 * One container's request as the pool selection and allocation see it.
 *
 * @param container the container
 * @param pod its pod
 * @param cpu what it asks of the CPUs
 * @param memory what it asks of memory
 */
record ContainerRequest(Container container, Pod pod, CpuRequest cpu, MemoryRequest memory) {
  /** Checks for nulls. */
  ContainerRequest {
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(cpu, "cpu");
    Objects.requireNonNull(memory, "memory");
  }

  /** A copy with another CPU request. */
  ContainerRequest withCpu(CpuRequest value) {
    return new ContainerRequest(container, pod, value, memory);
  }

  /** {@code <pod>:<container>}, as cri-resmgr names containers in its logs. */
  String prettyName() {
    return prettyName(pod, container);
  }

  /** {@code <pod>:<container>}. */
  static String prettyName(Pod pod, Container container) {
    return pod.name() + ":" + container.name();
  }

  /** Like {@code 2 exclusive CPUs + 500m shared, memory 100.00M (dram)}. */
  String describe() {
    CpuRequest c = cpu;
    String cpus =
        switch (c.kind()) {
          case RESERVED -> c.fractionMilli() + "m reserved";
          case PRESERVE -> "no CPU pinning";
          case NORMAL -> {
            String excl =
                c.full() > 0
                    ? c.full() + (c.requireIsolated() ? " isolated" : "") + " exclusive CPUs"
                    : "";
            String shared =
                c.fractionMilli() > 0 || c.full() == 0 ? c.fractionMilli() + "m shared" : "";
            yield excl.isEmpty() ? shared : shared.isEmpty() ? excl : excl + " + " + shared;
          }
        };
    return cpus
        + ", memory "
        + Memory.pretty(memory.bytes())
        + " ("
        + GrantJson.types(memory.types())
        + ")";
  }
}
