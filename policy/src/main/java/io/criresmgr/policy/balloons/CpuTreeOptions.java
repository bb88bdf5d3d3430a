package io.criresmgr.policy.balloons;

import io.criresmgr.policy.cpuallocator.CpuPriority;
import java.util.Objects;

/**
 * How a {@link CpuTreeAllocator} chooses CPUs (a balloon type's allocator options).
 *
 * @param topologyBalancing {@code allocatorTopologyBalancing}: inflate into the subtree with the
 *     most free CPUs (spread balloons apart); false packs balloons into the fullest subtree
 * @param preferSpreadOnPhysicalCores take one thread of each core before second threads
 * @param priority the CPU priority class preferred when picking the exact CPUs of a subtree
 */
public record CpuTreeOptions(
    boolean topologyBalancing, boolean preferSpreadOnPhysicalCores, CpuPriority priority) {
  /** Checks for null. */
  public CpuTreeOptions {
    Objects.requireNonNull(priority, "priority");
  }
}
