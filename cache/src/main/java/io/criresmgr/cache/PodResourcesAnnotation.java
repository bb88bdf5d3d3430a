package io.criresmgr.cache;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.criresmgr.cache.files.ParseLimits;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * Reads the webhook's pod annotation with every container's requests and limits (docs/webhook.md):
 * {@code {"initContainers":{"<name>":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{...}}},
 * "containers":{...},"sidecars":["<init container name>"]}}. Only {@code cpu} and {@code memory}
 * are read; other resources (extended resources such as {@code intel.com/gpu}) and other keys are
 * accepted and ignored. {@code sidecars} (optional, written by our webhook since native sidecars)
 * names the init containers with {@code restartPolicy: Always}; each must be one of {@code
 * initContainers}. Older daemons ignore it, as they ignore any other key.
 */
public final class PodResourcesAnnotation {
  /** The annotation key our webhook writes. */
  public static final String KEY = "resources.cri-resource-manager.intel.com";

  /** The key cri-resmgr's webhook writes, accepted too. */
  public static final String LEGACY_KEY = "intel.com/resources";

  private static final String FORMAT =
      "expected {\"initContainers\":{...},\"containers\":{\"<name>\":"
          + "{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},\"limits\":{...}}}}";

  private static final JsonMapper JSON =
      JsonMapper.builder(ParseLimits.ANNOTATION.jsonFactory())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private PodResourcesAnnotation() {}

  /**
   * The resources from {@link #KEY}, else {@link #LEGACY_KEY}; {@link PodResources#NONE} if neither
   * is set.
   *
   * @throws IllegalArgumentException naming the annotation and what is wrong with its value
   */
  public static PodResources fromAnnotations(Map<String, String> annotations) {
    String key = annotations.containsKey(KEY) ? KEY : LEGACY_KEY;
    String value = annotations.get(key);
    if (value == null) {
      return PodResources.NONE;
    }
    try {
      return parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("annotation " + key + ": " + e.getMessage(), e);
    }
  }

  private static PodResources parse(String value) {
    if (value.isBlank()) {
      throw new IllegalArgumentException("the value is empty; " + FORMAT);
    }
    JsonNode root;
    try {
      root = JSON.readTree(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "not valid JSON (" + e.getOriginalMessage() + "); " + FORMAT, e);
    }
    requireObject(root, "the value");
    Map<String, Resources> init = byName(root, "initContainers");
    return new PodResources(init, byName(root, "containers"), sidecars(root, init.keySet()));
  }

  private static Set<String> sidecars(JsonNode root, Set<String> initContainers) {
    JsonNode list = root.get("sidecars");
    if (list == null || list.isNull()) {
      return Set.of();
    }
    if (!list.isArray()) {
      throw new IllegalArgumentException(
          "sidecars must be a list of init container names such as [\"proxy\"], not " + list);
    }
    Set<String> names = new TreeSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode name = list.get(i);
      if (!name.isTextual() || !initContainers.contains(name.asText())) {
        throw new IllegalArgumentException(
            "sidecars["
                + i
                + "]: "
                + name
                + " is not one of the initContainers "
                + new TreeSet<>(initContainers));
      }
      names.add(name.asText());
    }
    return names;
  }

  private static Map<String, Resources> byName(JsonNode root, String field) {
    JsonNode containers = root.get(field);
    if (containers == null || containers.isNull()) {
      return Map.of();
    }
    requireObject(containers, field);
    Map<String, Resources> byName = new TreeMap<>();
    for (Map.Entry<String, JsonNode> entry : containers.properties()) {
      String path = field + "." + entry.getKey();
      byName.put(entry.getKey(), requirements(entry.getValue(), path));
    }
    return byName;
  }

  private static Resources requirements(JsonNode node, String path) {
    requireObject(node, path);
    JsonNode requests = amounts(node, "requests", path);
    JsonNode limits = amounts(node, "limits", path);
    return new Resources(
        quantity(requests, "cpu", path + ".requests", Quantities::parseMilli),
        quantity(limits, "cpu", path + ".limits", Quantities::parseMilli),
        quantity(requests, "memory", path + ".requests", Quantities::parseBytes),
        quantity(limits, "memory", path + ".limits", Quantities::parseBytes));
  }

  private static JsonNode amounts(JsonNode requirements, String field, String path) {
    JsonNode amounts = requirements.get(field);
    if (amounts == null || amounts.isNull()) {
      return JSON.createObjectNode();
    }
    requireObject(amounts, path + "." + field);
    return amounts;
  }

  private static long quantity(
      JsonNode amounts, String name, String path, ToLongFunction<String> parser) {
    JsonNode quantity = amounts.get(name);
    if (quantity == null || quantity.isNull()) {
      return 0;
    }
    if (!quantity.isTextual() && !quantity.isNumber()) {
      throw new IllegalArgumentException(
          path + "." + name + ": expected a quantity such as \"500m\" or \"1Gi\", got " + quantity);
    }
    try {
      return parser.applyAsLong(quantity.asText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + "." + name + ": " + e.getMessage(), e);
    }
  }

  private static void requireObject(JsonNode node, String what) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          what + " must be a JSON object, not " + node + "; " + FORMAT);
    }
  }
}
