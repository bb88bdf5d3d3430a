package io.criresmgr.proxy.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.criresmgr.cache.files.ParseLimits;
import java.util.Arrays;
import java.util.Map;

/**
 * YAML parsing and printing of configuration trees, and expansion of dotted section keys. Parsing
 * is bounded by {@link ParseLimits#CONFIG}: a text of more than 1 MiB or a value of more than 64
 * KiB is refused before it can make parsing slow.
 */
final class YamlTrees {
  static final YAMLMapper MAPPER =
      YAMLMapper.builder(
              ParseLimits.CONFIG
                  .yamlFactoryBuilder()
                  .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                  .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                  .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                  .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
                  .build())
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();

  private YamlTrees() {}

  /** Parses {@code text}; an empty document is an empty mapping. */
  static JsonNode read(String source, String text) {
    try {
      JsonNode node = ParseLimits.CONFIG.readYaml(MAPPER, text);
      return node.isMissingNode() ? JsonNodeFactory.instance.objectNode() : node;
    } catch (JsonProcessingException e) {
      throw new ConfigException(source + ": " + describe(e), e);
    }
  }

  private static String describe(JsonProcessingException e) {
    String message = String.valueOf(e.getOriginalMessage()).lines().findFirst().orElse("");
    JsonLocation at = e.getLocation();
    return at == null
        ? message
        : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": " + message;
  }

  /** Prints {@code tree} as YAML. */
  static String write(JsonNode tree) {
    try {
      return MAPPER.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot print configuration", e);
    }
  }

  /**
   * Expands top-level dotted keys ({@code "resource-manager.control": {...}}) into nested mappings,
   * merging them with sections given nested. A value given both ways is an error.
   */
  static JsonNode expandDottedKeys(String source, JsonNode tree) {
    if (!tree.isObject()) {
      return tree;
    }
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> e : tree.properties()) {
      ObjectNode parent = out;
      String[] parts = e.getKey().split("\\.", -1);
      if (Arrays.asList(parts).contains("")) {
        throw new ConfigException(
            source
                + ": \""
                + e.getKey()
                + "\": invalid key: every part of a dotted key needs a name, as in"
                + " resource-manager.control");
      }
      for (int i = 0; i < parts.length - 1; i++) {
        parent = child(source, parent, parts, i);
      }
      merge(source, parent, e.getKey(), parts[parts.length - 1], e.getValue());
    }
    return out;
  }

  private static ObjectNode child(String source, ObjectNode parent, String[] parts, int i) {
    JsonNode existing = parent.get(parts[i]);
    if (existing == null || existing.isNull()) {
      return parent.putObject(parts[i]);
    }
    if (!existing.isObject()) {
      throw new ConfigException(
          source
              + ": "
              + String.join(".", Arrays.copyOf(parts, i + 1))
              + ": invalid value "
              + existing
              + ": expected a mapping");
    }
    return (ObjectNode) existing;
  }

  private static void merge(
      String source, ObjectNode parent, String fullKey, String key, JsonNode value) {
    JsonNode existing = parent.get(key);
    if (existing == null || existing.isNull()) {
      parent.set(key, value.deepCopy());
    } else if (existing.isObject() && value.isObject()) {
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        merge(source, (ObjectNode) existing, fullKey + "." + e.getKey(), e.getKey(), e.getValue());
      }
    } else if (!value.isNull()) {
      throw new ConfigException(source + ": " + fullKey + ": given twice (nested and dotted)");
    }
  }
}
