package io.criresmgr.policy.topologyaware;

import io.criresmgr.policy.cpuallocator.CpuPriority;
import java.util.Objects;

/**
 * What a container asks of the CPUs, derived from its requests, QoS class, annotations and the
 * policy options (docs/policy/topology-aware.md, "How a request becomes a grant").
 *
 * @param kind where the CPUs come from
 * @param full exclusive CPUs wanted
 * @param fractionMilli shared milli-CPUs wanted on top of {@code full}
 * @param isolate prefer kernel-isolated CPUs for the exclusive part
 * @param requireIsolated fail rather than use non-isolated CPUs for the exclusive part
 * @param priority CPU priority preferred: steers the choice of pool and of exclusive CPUs
 * @param hideHyperthreads give one hyperthread per core of the granted CPUs
 * @param limitMilli CPU limit: {@link #UNLIMITED} for a Burstable container without one, 0 for a
 *     BestEffort one
 */
public record CpuRequest(
    CpuKind kind,
    int full,
    long fractionMilli,
    boolean isolate,
    boolean requireIsolated,
    CpuPriority priority,
    boolean hideHyperthreads,
    long limitMilli) {
  /** The limit of a Burstable container without a CPU limit (nri-plugins' {@code unlimitedCPU}). */
  public static final long UNLIMITED = Long.MAX_VALUE;

  /** Checks for nulls and negative amounts. */
  public CpuRequest {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(priority, "priority");
    if (full < 0 || fractionMilli < 0 || limitMilli < 0) {
      throw new IllegalArgumentException("negative CPU request");
    }
  }

  /** Whether this is a Burstable container's normal request without a CPU limit. */
  boolean unlimitedBurstable() {
    return kind == CpuKind.NORMAL && limitMilli == UNLIMITED;
  }
}
