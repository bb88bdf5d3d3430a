package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Pod;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.topologyaware.Annotations;
import io.criresmgr.policy.topologyaware.Annotations.Found;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
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

  private static final String TYPES = "expected a comma-separated list of dram, pmem, hbm, mixed";
  private static final Map<String, Set<MemoryType>> NAMED =
      Map.of(
          "dram", EnumSet.of(MemoryType.DRAM),
          "pmem", EnumSet.of(MemoryType.PMEM),
          "hbm", EnumSet.of(MemoryType.HBM),
          "mixed", EnumSet.allOf(MemoryType.class));

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
    Boolean hide = Annotations.bool(pod, container, Annotations.HIDE_HYPERTHREADS).orElse(null);
    Optional<Found> types = Annotations.effective(pod, container, Annotations.MEMORY_TYPE);
    boolean preserve = Annotations.bool(pod, container, Annotations.MEMORY_PRESERVE).orElse(false);
    return new PinningOverrides(
        hide,
        types.filter(f -> !f.value().isBlank()).map(f -> types(f, present)).orElse(null),
        preserve);
  }

  /** Whether to hide hyperthreads in a balloon of {@code type}. */
  boolean hideHyperthreads(BalloonType type) {
    return hideHyperthreads != null ? hideHyperthreads : type.hideHyperthreads();
  }

  /** The memory types for a balloon of {@code type}; empty: every type. */
  Set<MemoryType> memoryTypes(BalloonType type) {
    return memoryTypes != null ? memoryTypes : type.memoryTypes();
  }

  private static Set<MemoryType> types(Found f, Set<MemoryType> present) {
    Set<MemoryType> out = EnumSet.noneOf(MemoryType.class);
    for (String name : f.value().split(",", -1)) {
      Set<MemoryType> named = NAMED.get(name.strip().toLowerCase(Locale.ROOT));
      if (named == null) {
        throw f.invalid(TYPES);
      }
      out.addAll(named);
    }
    out.retainAll(present);
    if (out.isEmpty()) {
      String has = present.stream().map(MemoryType::label).collect(Collectors.joining(","));
      throw f.invalid("the node has only " + has + " memory");
    }
    return out;
  }
}
