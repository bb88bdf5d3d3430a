package io.criresmgr.simulator;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a YAML document into a JSON tree and remembers the line of every value by its path ({@code
 * steps[2].create.cpu}), so that validation errors can name the line. Duplicate keys are errors.
 */
final class LocatedYaml {
  private static final YAMLFactory YAML = new YAMLFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final String source;
  private final Map<String, Integer> lines = new HashMap<>();

  private LocatedYaml(String source) {
    this.source = source;
  }

  /**
   * Parses {@code text}; an empty document is an empty mapping.
   *
   * @throws ScenarioException for malformed YAML, naming line and column
   */
  static ScenarioNode read(String source, String text) {
    LocatedYaml reader = new LocatedYaml(source);
    try (JsonParser parser = YAML.createParser(text)) {
      JsonNode root = parser.nextToken() == null ? NODES.objectNode() : reader.value(parser, "");
      if (parser.nextToken() != null) {
        throw reader.error(parser, "more than one YAML document; a scenario is one document");
      }
      return new ScenarioNode(source, "", root, Map.copyOf(reader.lines));
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      throw new ScenarioException(
          source + ":" + line + ": not valid YAML: " + firstLine(e.getOriginalMessage()), e);
    } catch (IOException e) {
      throw new ScenarioException(source + ": cannot read: " + e, e);
    }
  }

  private JsonNode value(JsonParser p, String path) throws IOException {
    lines.put(path, p.currentTokenLocation().getLineNr());
    JsonToken token = p.currentToken();
    return switch (token) {
      case START_OBJECT -> object(p, path);
      case START_ARRAY -> array(p, path);
      case VALUE_STRING -> NODES.textNode(p.getText());
      case VALUE_NUMBER_INT -> NODES.numberNode(p.getBigIntegerValue());
      case VALUE_NUMBER_FLOAT -> NODES.numberNode(p.getDecimalValue());
      case VALUE_TRUE, VALUE_FALSE -> NODES.booleanNode(token == JsonToken.VALUE_TRUE);
      case VALUE_NULL -> NODES.nullNode();
      default -> throw error(p, "unexpected " + token);
    };
  }

  private ObjectNode object(JsonParser p, String path) throws IOException {
    ObjectNode object = NODES.objectNode();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      String child = ScenarioNode.child(path, key);
      if (object.has(key)) {
        throw error(p, child + ": duplicate key");
      }
      p.nextToken();
      object.set(key, value(p, child));
    }
    return object;
  }

  private ArrayNode array(JsonParser p, String path) throws IOException {
    ArrayNode array = NODES.arrayNode();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      array.add(value(p, path + "[" + array.size() + "]"));
    }
    return array;
  }

  private ScenarioException error(JsonParser p, String message) {
    return new ScenarioException(
        source + ":" + p.currentTokenLocation().getLineNr() + ": " + message);
  }

  private static String firstLine(String message) {
    return String.valueOf(message).lines().findFirst().orElse("");
  }
}
