package io.criresmgr.webhook.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Builds the value of the pod annotation that tells the daemon every container's requests and
 * limits (docs/webhook.md), the format the cache's {@code PodResourcesAnnotation} parses: {@code
 * {"initContainers":{"<name>":{"requests":{"cpu":"500m"},"limits":{...}}},"containers":{...}}}.
 * Every resource is copied as written in the pod (cpu, memory, hugepages, extended resources);
 * containers without resources appear as {@code {}}. Init containers with {@code restartPolicy:
 * Always} (native sidecars, which keep running with the containers) are listed by name under {@code
 * "sidecars":[...]}, only when the pod has some: daemons that do not know the key ignore it, and
 * the value of a pod without sidecars stays the same. Names are sorted so that one pod always gives
 * one string, which keeps updates idempotent.
 */
public final class ResourceAnnotation {
  /** The annotation key, the one the daemon's cache reads first. */
  public static final String KEY = "resources.cri-resource-manager.intel.com";

  private static final JsonMapper JSON = new JsonMapper();
  private static final String[] AMOUNTS = {"requests", "limits"};
  private static final String ALWAYS = "Always";

  private ResourceAnnotation() {}

  /**
   * The annotation value for {@code pod} (a core/v1 Pod as JSON).
   *
   * @throws IllegalArgumentException naming the field of the pod that is malformed
   */
  public static String valueOf(JsonNode pod) {
    Fields.requireObject(pod, "the pod");
    JsonNode spec = pod.path("spec");
    Fields.requireObject(spec, "spec");
    ObjectNode value = JSON.createObjectNode();
    value.set("initContainers", byName(spec.get("initContainers"), "spec.initContainers"));
    value.set("containers", byName(spec.get("containers"), "spec.containers"));
    List<String> sidecars = sidecars(spec.get("initContainers"));
    if (!sidecars.isEmpty()) {
      sidecars.forEach(value.putArray("sidecars")::add);
    }
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e); // a tree of strings always serializes
    }
  }

  private static ObjectNode byName(@Nullable JsonNode list, String path) {
    Map<String, ObjectNode> byName = new TreeMap<>();
    if (list == null || Fields.isAbsent(list)) {
      return JSON.createObjectNode();
    }
    if (!list.isArray()) {
      throw new IllegalArgumentException(path + " must be a list, not " + list.getNodeType());
    }
    for (int i = 0; i < list.size(); i++) {
      String at = path + "[" + i + "]";
      JsonNode container = list.get(i);
      Fields.requireObject(container, at);
      String name = Fields.requireText(container.get("name"), at + ".name");
      if (byName.put(name, requirements(container.get("resources"), at + ".resources")) != null) {
        throw new IllegalArgumentException(path + ": duplicate container name \"" + name + "\"");
      }
    }
    ObjectNode out = JSON.createObjectNode();
    byName.forEach(out::set);
    return out;
  }

  /** The init containers with {@code restartPolicy: Always}, sorted; the list was checked. */
  private static List<String> sidecars(@Nullable JsonNode list) {
    List<String> names = new ArrayList<>();
    for (int i = 0; list != null && !Fields.isAbsent(list) && i < list.size(); i++) {
      JsonNode container = list.get(i);
      JsonNode policy = container.get("restartPolicy");
      String path = "spec.initContainers[" + i + "].restartPolicy";
      if (!Fields.isAbsent(policy) && ALWAYS.equals(Fields.requireText(policy, path))) {
        names.add(container.get("name").asText());
      }
    }
    Collections.sort(names);
    return names;
  }

  private static ObjectNode requirements(@Nullable JsonNode resources, String path) {
    ObjectNode out = JSON.createObjectNode();
    if (resources == null || Fields.isAbsent(resources)) {
      return out;
    }
    Fields.requireObject(resources, path);
    for (String field : AMOUNTS) {
      ObjectNode amounts = amounts(resources.get(field), path + "." + field);
      if (!amounts.isEmpty()) {
        out.set(field, amounts);
      }
    }
    return out;
  }

  private static ObjectNode amounts(@Nullable JsonNode node, String path) {
    ObjectNode out = JSON.createObjectNode();
    if (node == null || Fields.isAbsent(node)) {
      return out;
    }
    Fields.requireObject(node, path);
    Map<String, String> sorted = new TreeMap<>();
    node.properties().forEach(e -> sorted.put(e.getKey(), quantity(e.getValue(), path, e)));
    sorted.forEach(out::put);
    return out;
  }

  private static String quantity(JsonNode value, String path, Map.Entry<String, JsonNode> entry) {
    String text = text(value, path, entry);
    DaemonQuantity.check(entry.getKey(), text, path + "." + entry.getKey());
    return text;
  }

  private static String text(JsonNode value, String path, Map.Entry<String, JsonNode> entry) {
    if (value.isTextual()) {
      return value.asText();
    }
    if (value.isNumber()) {
      return value.decimalValue().toPlainString();
    }
    throw new IllegalArgumentException(
        path + "." + entry.getKey() + ": expected a quantity such as \"500m\", got " + value);
  }
}
