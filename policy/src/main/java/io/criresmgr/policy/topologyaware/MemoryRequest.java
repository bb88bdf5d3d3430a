package io.criresmgr.policy.topologyaware;

import io.criresmgr.policy.sysfs.MemoryType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a container asks of memory.
 *
 * @param types memory types it may use (never empty)
 * @param bytes the amount to reserve (Guaranteed: limit; Burstable: request; BestEffort: 0)
 * @param limitBytes the memory limit (0: none), which the pool selection prefers to fit in the
 *     pool's memory when it is above {@code bytes}
 * @param coldStart how long to keep it on PMEM only after start ({@link Duration#ZERO}: no cold
 *     start)
 * @param preserve {@code memory.preserve}: leave the container's mems as kubelet set them
 */
public record MemoryRequest(
    Set<MemoryType> types, long bytes, long limitBytes, Duration coldStart, boolean preserve) {
  /** Checks for nulls, an empty type set and negative amounts; copies the set. */
  public MemoryRequest {
    Objects.requireNonNull(coldStart, "coldStart");
    if (types.isEmpty()) {
      throw new IllegalArgumentException("no memory type");
    }
    types = java.util.Collections.unmodifiableSet(EnumSet.copyOf(types));
    if (bytes < 0 || limitBytes < 0 || coldStart.isNegative()) {
      throw new IllegalArgumentException("negative memory request");
    }
  }

  /** A request whose limit is what it reserves. */
  public MemoryRequest(Set<MemoryType> types, long bytes, Duration coldStart, boolean preserve) {
    this(types, bytes, bytes, coldStart, preserve);
  }

  /** Whether the limit is above what is reserved (a Burstable container may grow past it). */
  boolean burstable() {
    return limitBytes > bytes;
  }
}
