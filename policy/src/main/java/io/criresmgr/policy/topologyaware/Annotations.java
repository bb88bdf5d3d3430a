package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.files.ParseLimits;
import io.criresmgr.policy.PolicyException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The pod annotations of the topology-aware policy and how a container's effective value is found.
 *
 * <p>Every key is {@code <name>.cri-resource-manager.intel.com} (primary) or {@code
 * <name>.resource-policy.nri.io} (the nri-plugins spelling), optionally scoped: for container
 * {@code c} the lookup order is {@code key/container.c}, {@code key/pod}, {@code key}; at the same
 * scope the cri-resmgr spelling wins. Some names also have a deprecated pod-wide form {@code
 * cri-resource-manager.intel.com/<name>}, consulted only when no effective annotation is set.
 *
 * <p>A malformed value of a known key is a {@link PolicyException} naming the annotation, the value
 * and what is accepted; the pipeline fails the request with it. Unknown keys under these domains
 * are logged by {@link UnknownAnnotations}.
 */
public final class Annotations {
  /** The cri-resmgr annotation domain. */
  public static final String CRI = "cri-resource-manager.intel.com";

  /** The nri-plugins annotation domain. */
  public static final String NRI = "resource-policy.nri.io";

  /** Bool: prefer kernel-isolated CPUs for the exclusive part. */
  public static final String PREFER_ISOLATED_CPUS = "prefer-isolated-cpus";

  /** Bool: prefer shared CPUs to exclusive ones (opt out or in). */
  public static final String PREFER_SHARED_CPUS = "prefer-shared-cpus";

  /** Bool: run on the reserved CPUs ({@code false} opts out of a reserved namespace). */
  public static final String PREFER_RESERVED_CPUS = "prefer-reserved-cpus";

  /** Bool: like {@link #PREFER_ISOLATED_CPUS}, but fail if there are no isolated CPUs. */
  public static final String REQUIRE_ISOLATED_CPUS = "require-isolated-cpus";

  /** {@code high|normal|low|none|default}: preferred CPU priority (pool and exclusive CPUs). */
  public static final String PREFER_CPU_PRIORITY = "prefer-cpu-priority";

  /** The CPU class (cpu controller) of a Guaranteed container's exclusive CPUs. */
  public static final String CPU_CLASS = "cpu-class";

  /** Bool: one hyperthread per core of the granted CPUs. */
  public static final String HIDE_HYPERTHREADS = "hide-hyperthreads";

  /** Comma list of {@code dram}, {@code pmem}, {@code hbm}, {@code mixed}. */
  public static final String MEMORY_TYPE = "memory-type";

  /** YAML {@code duration: <Go duration>}: keep memory on PMEM only for a while after start. */
  public static final String COLD_START = "cold-start";

  /** Bool: leave the container's cpuset as kubelet set it. */
  public static final String CPU_PRESERVE = "cpu.preserve";

  /** Bool: leave the container's memory nodes as kubelet set them. */
  public static final String MEMORY_PRESERVE = "memory.preserve";

  /**
   * {@code system|package|die|numa}: where the container goes if it is Burstable without a CPU
   * limit, instead of the {@code UnlimitedBurstable} option.
   */
  public static final String UNLIMITED_BURSTABLE = "unlimited-burstable";

  /** Every name above. */
  public static final List<String> NAMES =
      List.of(
          PREFER_ISOLATED_CPUS,
          PREFER_SHARED_CPUS,
          PREFER_RESERVED_CPUS,
          REQUIRE_ISOLATED_CPUS,
          PREFER_CPU_PRIORITY,
          CPU_CLASS,
          HIDE_HYPERTHREADS,
          MEMORY_TYPE,
          COLD_START,
          CPU_PRESERVE,
          MEMORY_PRESERVE,
          UNLIMITED_BURSTABLE);

  private static final ObjectMapper YAML = new YAMLMapper(ParseLimits.ANNOTATION.yamlFactory());

  private Annotations() {}

  /** How narrowly an effective annotation applies; narrower scopes come first. */
  public enum Scope {
    /** {@code key/container.<name>}. */
    CONTAINER,
    /** {@code key/pod}. */
    POD,
    /** {@code key}. */
    UNSCOPED;

    /** What follows the key in an annotation of this scope for {@code container}. */
    String suffix(String container) {
      return switch (this) {
        case CONTAINER -> "/container." + container;
        case POD -> "/pod";
        case UNSCOPED -> "";
      };
    }
  }

  /**
   * An annotation found for a container.
   *
   * @param key the full annotation key, e.g. {@code memory-type.resource-policy.nri.io/pod}
   * @param value its value
   * @param scope its scope
   */
  public record Found(String key, String value, Scope scope) {
    /** Checks for nulls. */
    public Found {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(scope, "scope");
    }

    /**
     * An error for this annotation: {@code annotation <key>: invalid value "<value>": <expected>}.
     */
    public PolicyException invalid(String expected) {
      return new PolicyException(
          "annotation " + key + ": invalid value \"" + value + "\": " + expected);
    }
  }

  /**
   * The cri-resmgr key of {@code name}, e.g. {@code memory-type.cri-resource-manager.intel.com}.
   */
  public static String key(String name) {
    return name + "." + CRI;
  }

  /** The nri-plugins key of {@code name}, e.g. {@code memory-type.resource-policy.nri.io}. */
  public static String nriKey(String name) {
    return name + "." + NRI;
  }

  /**
   * The deprecated pod-wide key of {@code name}, e.g. {@code
   * cri-resource-manager.intel.com/memory-type}.
   */
  public static String deprecatedKey(String name) {
    return CRI + "/" + name;
  }

  /** The effective annotation {@code name} of container {@code container} of {@code pod}. */
  public static Optional<Found> effective(Pod pod, String container, String name) {
    if (!mayHave(pod, name)) {
      return Optional.empty(); // the common case, asked for every container at every decision
    }
    for (Scope scope : Scope.values()) {
      String suffix = scope.suffix(container);
      for (String key : List.of(key(name), nriKey(name))) {
        String full = key + suffix;
        String value = pod.annotations().get(full);
        if (value != null) {
          return Optional.of(new Found(full, value, scope));
        }
      }
    }
    return Optional.empty();
  }

  /** Whether some annotation of {@code pod} starts with {@code name.}, as all its keys do. */
  private static boolean mayHave(Pod pod, String name) {
    for (String key : pod.annotations().keySet()) {
      if (key.length() > name.length()
          && key.charAt(name.length()) == '.'
          && key.startsWith(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The effective annotation {@code name} as a boolean (Go's {@code strconv.ParseBool}: {@code
   * true}, {@code True}, {@code TRUE}, {@code t}, {@code T}, {@code 1} and the false ones).
   *
   * @throws PolicyException if the value is none of these
   */
  public static Optional<Boolean> bool(Pod pod, String container, String name) {
    return effective(pod, container, name).map(Annotations::bool);
  }

  /** {@code found}'s value as a boolean, see {@link #bool(Pod, String, String)}. */
  static boolean bool(Found found) {
    Boolean b = parseBool(found.value());
    if (b == null) {
      throw found.invalid("expected true or false");
    }
    return b;
  }

  static @org.jspecify.annotations.Nullable Boolean parseBool(String value) {
    return switch (value) {
      case "1", "t", "T", "true", "True", "TRUE" -> true;
      case "0", "f", "F", "false", "False", "FALSE" -> false;
      default -> null;
    };
  }

  /**
   * The deprecated pod-wide annotation {@code name}, e.g. the value of {@code
   * cri-resource-manager.intel.com/memory-type}.
   */
  static Optional<Found> deprecated(Pod pod, String name) {
    String key = deprecatedKey(name);
    return Optional.ofNullable(pod.annotations().get(key)).map(v -> new Found(key, v, Scope.POD));
  }

  /**
   * A deprecated annotation's value parsed as YAML (missing for an empty value).
   *
   * @throws PolicyException if it is no YAML, with {@code expected}
   */
  static JsonNode yaml(Found found, String expected) {
    try {
      return readYaml(found.value());
    } catch (JsonProcessingException e) {
      throw found.invalid(expected);
    }
  }

  /** An annotation's value parsed as YAML, within {@link ParseLimits#ANNOTATION}. */
  static JsonNode readYaml(String value) throws JsonProcessingException {
    return ParseLimits.ANNOTATION.readYaml(YAML, value);
  }

  /**
   * The deprecated boolean {@code name} for {@code container}: {@code true|false} for every
   * container, or a YAML map from container names to booleans.
   *
   * @throws PolicyException if it is neither, naming the accepted forms
   */
  static Optional<Boolean> deprecatedBool(Pod pod, String container, String name) {
    Optional<Found> found = deprecated(pod, name);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    String expected = "expected true, false or a map of container names to true or false";
    Found f = found.get();
    JsonNode node = yaml(f, expected);
    if (node.isObject()) {
      node = node.path(container);
    } else if (!node.isBoolean() && !node.isMissingNode() && !node.isNull()) {
      throw f.invalid(expected);
    }
    if (node.isMissingNode() || node.isNull()) {
      return Optional.empty();
    }
    Boolean b = node.isBoolean() ? Boolean.valueOf(node.booleanValue()) : parseBool(node.asText());
    if (b == null || !node.isValueNode()) {
      throw f.invalid(expected);
    }
    return Optional.of(b);
  }
}
