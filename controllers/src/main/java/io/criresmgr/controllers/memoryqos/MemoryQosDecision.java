package io.criresmgr.controllers.memoryqos;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What memory QoS decided for one container.
 *
 * @param qosClass the container's class, if it has one
 * @param unified cgroup v2 files to set (file name to value), e.g. {@code memory.high=80000000};
 *     empty when there is nothing to change
 * @param warnings annotations that were ignored, for the log
 */
public record MemoryQosDecision(
    Optional<String> qosClass, SortedMap<String, String> unified, List<String> warnings) {
  /** Nothing to set, no class, no warnings. */
  public static final MemoryQosDecision NONE =
      new MemoryQosDecision(Optional.empty(), new TreeMap<>(), List.of());

  /** Copies and freezes the map and list. */
  public MemoryQosDecision {
    Objects.requireNonNull(qosClass, "qosClass");
    unified = Collections.unmodifiableSortedMap(new TreeMap<>(unified));
    warnings = List.copyOf(warnings);
  }

  /** Whether there are no files to set. */
  public boolean isEmpty() {
    return unified.isEmpty();
  }
}
