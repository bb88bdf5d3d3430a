package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Pod;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.topologyaware.Annotations.Found;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code memory-type} annotation: a comma list of {@code dram}, {@code pmem}, {@code hbm} and
 * {@code mixed} (= all), kept to the types the node has. Shared by topology-aware and balloons.
 */
public final class MemoryTypeAnnotation {
  private static final String TYPES = "expected a comma-separated list of dram, pmem, hbm, mixed";
  private static final Map<String, Set<MemoryType>> NAMED =
      Map.of(
          "dram", EnumSet.of(MemoryType.DRAM),
          "pmem", EnumSet.of(MemoryType.PMEM),
          "hbm", EnumSet.of(MemoryType.HBM),
          "mixed", EnumSet.allOf(MemoryType.class));

  private MemoryTypeAnnotation() {}

  /**
   * The types the effective {@code memory-type} annotation of {@code container} asks for, of those
   * {@code present} on the node; empty if it is not set or blank. The deprecated pod-wide form is
   * not read here.
   *
   * @throws io.criresmgr.policy.PolicyException if the annotation is malformed or names only types
   *     the node lacks
   */
  public static Optional<Set<MemoryType>> effective(
      Pod pod, String container, Set<MemoryType> present) {
    return Annotations.effective(pod, container, Annotations.MEMORY_TYPE)
        .filter(f -> !f.value().isBlank())
        .map(f -> parse(f, f.value(), present));
  }

  /**
   * The types {@code list} (the value of {@code found}, or a part of it) names, of those {@code
   * present}.
   *
   * @throws io.criresmgr.policy.PolicyException naming {@code found} if the list is malformed or
   *     names only types the node lacks
   */
  static Set<MemoryType> parse(Found found, String list, Set<MemoryType> present) {
    Set<MemoryType> out = EnumSet.noneOf(MemoryType.class);
    for (String name : list.split(",", -1)) {
      Set<MemoryType> named = NAMED.get(name.strip().toLowerCase(Locale.ROOT));
      if (named == null) {
        throw found.invalid(TYPES);
      }
      out.addAll(named);
    }
    out.retainAll(present);
    if (out.isEmpty()) {
      String has = present.stream().map(MemoryType::label).collect(Collectors.joining(","));
      throw found.invalid("the node has only " + has + " memory");
    }
    return out;
  }
}
