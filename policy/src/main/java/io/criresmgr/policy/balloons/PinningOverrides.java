package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Pod;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.topologyaware.Annotations;
import io.criresmgr.policy.topologyaware.MemoryTypeAnnotation;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a container's effective annotations change in its balloon type's pinning: {@code
 * hide-hyperthreads} ({@code true|false}, as Go's {@code strconv.ParseBool} reads them) overrides
 * {@code HideHyperthreads}, {@code memory-type} (a comma list of {@code dram}, {@code pmem}, {@code
 * hbm}, {@code mixed} = all) overrides {@code MemoryTypes}. Keys are {@code
 * <name>.resource-policy.nri.io} or {@code <name>.cri-resource-manager.intel.com}, with the {@code
 * /container.<name>} or {@code /pod} scopes, found as topology-aware finds them ({@link
 * Annotations#effective}).
 *
 * @param hideHyperthreads the annotation's value, {@code null}: not annotated
 * @param memoryTypes the annotated types, {@code null}: not annotated
 * @param preserveMemory {@code memory.preserve: "true"}: the container's memory nodes are left
 *     alone
 */
record PinningOverrides(
    @Nullable Boolean hideHyperthreads,
    @Nullable Set<MemoryType> memoryTypes,
    boolean preserveMemory) {
  /** No annotation. */
  static final PinningOverrides NONE = new PinningOverrides(null, null, false);

  /** The annotation keys read here start with these, whatever the domain and scope. */
  private static final List<String> PREFIXES =
      List.of(
          Annotations.HIDE_HYPERTHREADS + ".",
          Annotations.MEMORY_TYPE + ".",
          Annotations.MEMORY_PRESERVE + ".");

  /** Copies the types. */
  PinningOverrides {
    memoryTypes = memoryTypes == null ? null : Set.copyOf(memoryTypes);
  }

  /**
   * The overrides of container {@code container} of {@code pod} on a node with memory of {@code
   * present} types.
   *
   * @throws PolicyException naming the annotation and its value if a value is malformed, or if
   *     {@code memory-type} names only types the node lacks
   */
  static PinningOverrides of(Pod pod, String container, Set<MemoryType> present) {
    if (!mentionsAny(pod)) {
      return NONE; // the common case, and every decision asks it for every container
    }
    Boolean hide = Annotations.bool(pod, container, Annotations.HIDE_HYPERTHREADS).orElse(null);
    Set<MemoryType> types = MemoryTypeAnnotation.effective(pod, container, present).orElse(null);
    boolean preserve = Annotations.bool(pod, container, Annotations.MEMORY_PRESERVE).orElse(false);
    return new PinningOverrides(hide, types, preserve);
  }

  /** Whether some annotation key of {@code pod} starts with one of the names read here. */
  static boolean mentionsAny(Pod pod) {
    for (String key : pod.annotations().keySet()) {
      for (String prefix : PREFIXES) {
        if (key.startsWith(prefix)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether to hide hyperthreads in a balloon of {@code type}. */
  boolean hideHyperthreads(BalloonType type) {
    return hideHyperthreads != null ? hideHyperthreads : type.hideHyperthreads();
  }

  /** The memory types for a balloon of {@code type}; empty: every type. */
  Set<MemoryType> memoryTypes(BalloonType type) {
    return memoryTypes != null ? memoryTypes : type.memoryTypes();
  }
}
