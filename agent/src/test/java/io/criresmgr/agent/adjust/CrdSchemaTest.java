package io.criresmgr.agent.adjust;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shipped CRD's schema is structural, as the API server requires of apiextensions.k8s.io/v1:
 * every node has a type unless it is int-or-string or preserves unknown fields, no node has both
 * {@code properties} and {@code additionalProperties}, and every array has {@code items}.
 */
class CrdSchemaTest {
  private static final Path CRD =
      Path.of("")
          .toAbsolutePath()
          .getParent()
          .resolve("packaging/helm/cri-resmgr/files/adjustment-crd.yaml");

  @Test
  void theSchemaIsStructural() throws IOException {
    assertEquals(List.of(), violations(schema()));
  }

  @Test
  void theCheckFindsEachViolation() {
    Map<String, Object> bad =
        Map.of(
            "type",
            "object",
            "properties",
            Map.of(
                "both",
                Map.of("type", "object", "properties", Map.of(), "additionalProperties", false),
                "untyped",
                Map.of("description", "no type"),
                "list",
                Map.of("type", "array"),
                "number",
                Map.of("x-kubernetes-int-or-string", true)));
    assertEquals(
        List.of(
            ".both: both properties and additionalProperties",
            ".list: array without items",
            ".untyped: no type"),
        violations(bad).stream().sorted().toList());
  }

  private static Map<?, ?> schema() throws IOException {
    Map<?, ?> crd = new org.yaml.snakeyaml.Yaml().load(Files.readString(CRD));
    Map<?, ?> version =
        (Map<?, ?>) ((List<?>) ((Map<?, ?>) crd.get("spec")).get("versions")).get(0);
    return (Map<?, ?>) ((Map<?, ?>) version.get("schema")).get("openAPIV3Schema");
  }

  private static List<String> violations(Map<?, ?> root) {
    List<String> found = new ArrayList<>();
    walk(root, "", found);
    return found;
  }

  private static void walk(Map<?, ?> node, String path, List<String> found) {
    if (node.containsKey("properties") && node.containsKey("additionalProperties")) {
      found.add(path + ": both properties and additionalProperties");
    }
    boolean untypedAllowed =
        Boolean.TRUE.equals(node.get("x-kubernetes-int-or-string"))
            || Boolean.TRUE.equals(node.get("x-kubernetes-preserve-unknown-fields"));
    if (!untypedAllowed && !(node.get("type") instanceof String type && !type.isEmpty())) {
      found.add(path + ": no type");
    }
    if ("array".equals(node.get("type")) && !(node.get("items") instanceof Map)) {
      found.add(path + ": array without items");
    }
    if (node.get("properties") instanceof Map<?, ?> properties) {
      properties.forEach((name, child) -> walk((Map<?, ?>) child, path + "." + name, found));
    }
    if (node.get("additionalProperties") instanceof Map<?, ?> values) {
      walk(values, path + ".*", found);
    }
    if (node.get("items") instanceof Map<?, ?> items) {
      walk(items, path + "[]", found);
    }
  }
}
