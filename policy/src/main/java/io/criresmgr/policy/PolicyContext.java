package io.criresmgr.policy;

import io.criresmgr.cache.CpuSet;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What a policy may know about the node when it is created.
 *
 * @param hostRoot prefix of the host's {@code /sys} ({@code --host-root})
 * @param onlineCpus the node's online CPUs
 * @param memoryNodes the node's memory nodes
 * @param availableResources {@code policy.AvailableResources} (e.g. {@code CPU: cpuset:0-3})
 * @param reservedResources {@code policy.ReservedResources} (e.g. {@code CPU: 750m})
 */
public record PolicyContext(
    Path hostRoot,
    CpuSet onlineCpus,
    CpuSet memoryNodes,
    Map<String, String> availableResources,
    Map<String, String> reservedResources) {
  /** Checks for nulls and copies the maps. */
  public PolicyContext {
    Objects.requireNonNull(hostRoot, "hostRoot");
    Objects.requireNonNull(onlineCpus, "onlineCpus");
    Objects.requireNonNull(memoryNodes, "memoryNodes");
    availableResources = Map.copyOf(availableResources);
    reservedResources = Map.copyOf(reservedResources);
  }
}
