package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.GoDuration;
import io.criresmgr.cache.Pod;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.topologyaware.Annotations.Found;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code memory-type} and {@code cold-start} annotations, in the effective and the deprecated
 * pod-wide forms (docs/policy/topology-aware.md, "Annotations").
 */
final class MemoryAnnotations {
  static final Duration MAX_COLD_START = Duration.ofHours(1);

  private static final String COLD_START_FORM =
      "{duration: D} with D between 0 and 1h, " + GoDuration.FORM;
  private static final String COLD_START = "expected " + COLD_START_FORM;
  private static final String OLD_COLD_START =
      "expected a map of container names to " + COLD_START_FORM;

  private MemoryAnnotations() {}

  /**
   * The memory types {@code container} asks for, of those {@code present} on the node. If it does
   * not say: DRAM and PMEM, not HBM (as nri-plugins), or all of {@code present} if the node has
   * neither DRAM nor PMEM.
   *
   * @throws io.criresmgr.policy.PolicyException if the annotation is malformed or names only types
   *     the node lacks
   */
  static Set<MemoryType> types(Pod pod, String container, Set<MemoryType> present) {
    Optional<Found> found = Annotations.effective(pod, container, Annotations.MEMORY_TYPE);
    String list = found.map(Found::value).orElse("");
    if (found.isEmpty()) {
      found = Annotations.deprecated(pod, Annotations.MEMORY_TYPE);
      list = found.map(f -> deprecatedTypes(f, container)).orElse("");
    }
    if (found.isEmpty() || list.isBlank()) {
      return byDefault(present);
    }
    return MemoryTypeAnnotation.parse(found.get(), list, present);
  }

  private static Set<MemoryType> byDefault(Set<MemoryType> present) {
    Set<MemoryType> types = EnumSet.of(MemoryType.DRAM, MemoryType.PMEM);
    types.retainAll(present);
    return types.isEmpty() ? EnumSet.copyOf(present) : types;
  }

  // A YAML map gives each container its types; anything else is one value for all containers.
  private static String deprecatedTypes(Found old, String container) {
    JsonNode node = yamlOrMissing(old.value());
    if (!node.isObject()) {
      return old.value();
    }
    JsonNode entry = node.path(container);
    if (!entry.isMissingNode() && !entry.isNull() && !entry.isValueNode()) {
      throw old.invalid("expected dram, pmem, hbm, mixed or a map of container names to them");
    }
    return entry.isValueNode() && !entry.isNull() ? entry.asText() : "";
  }

  /**
   * How long {@code container} wants its memory on PMEM only after it starts; zero if it does not
   * say.
   *
   * @throws io.criresmgr.policy.PolicyException if the annotation is malformed or out of range
   */
  static Duration coldStart(Pod pod, String container) {
    Optional<Found> found = Annotations.effective(pod, container, Annotations.COLD_START);
    if (found.isPresent()) {
      return coldStart(found.get(), Annotations.yaml(found.get(), COLD_START));
    }
    Optional<Found> old = Annotations.deprecated(pod, Annotations.COLD_START);
    if (old.isEmpty()) {
      return Duration.ZERO;
    }
    JsonNode node = Annotations.yaml(old.get(), OLD_COLD_START);
    if (!node.isObject() && !node.isMissingNode()) {
      throw old.get().invalid(OLD_COLD_START);
    }
    JsonNode entry = node.path(container);
    return entry.isMissingNode() ? Duration.ZERO : coldStart(old.get(), entry);
  }

  private static Duration coldStart(Found found, JsonNode node) {
    if (node.isMissingNode() || node.isNull()) {
      return Duration.ZERO;
    }
    if (!node.isObject() || node.size() > 1) {
      throw found.invalid(COLD_START);
    }
    JsonNode value = null;
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      // Numbers pass as text: Go's syntax takes "0" alone without a unit.
      boolean scalar = e.getValue().isTextual() || e.getValue().isIntegralNumber();
      if (!e.getKey().equalsIgnoreCase("duration") || !scalar) {
        throw found.invalid(COLD_START);
      }
      value = e.getValue();
    }
    return value == null ? Duration.ZERO : duration(found, value.asText());
  }

  private static Duration duration(Found found, String text) {
    Duration d;
    try {
      d = GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw found.invalid(COLD_START);
    }
    if (d.isNegative() || d.compareTo(MAX_COLD_START) > 0) {
      throw found.invalid(COLD_START);
    }
    return d;
  }

  private static JsonNode yamlOrMissing(String value) {
    try {
      return Annotations.readYaml(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
  }
}
