package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random policy data and random edits of it, as policies make them: keys added, removed, replaced
 * in place or moved, values changed deep inside, lists changed, grown and shrunk, types changed.
 * Edits never change a tree: they copy the path to what they change and share the rest, as
 * topology-aware's policy data shares unchanged grants.
 */
final class RandomJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private final Random random;
  private int keys;

  RandomJson(Random random) {
    this.random = random;
  }

  /** An object of up to {@code depth} levels. */
  ObjectNode object(int depth) {
    ObjectNode o = NODES.objectNode();
    for (int n = random.nextInt(6); n > 0; n--) {
      o.set(key(), value(depth - 1));
    }
    return o;
  }

  /** Any value of up to {@code depth} levels. */
  JsonNode value(int depth) {
    return switch (random.nextInt(depth > 0 ? 9 : 6)) {
      case 0 -> NODES.textNode("t" + random.nextInt(5));
      case 1 -> NODES.numberNode(random.nextInt(5));
      case 2 -> NODES.numberNode(random.nextLong() | (1L << 40));
      case 3 -> NODES.numberNode(random.nextInt(4) / 2.0);
      case 4 -> NODES.booleanNode(random.nextBoolean());
      case 5 -> NODES.nullNode();
      case 6 -> array(depth);
      default -> object(depth);
    };
  }

  private ArrayNode array(int depth) {
    ArrayNode a = NODES.arrayNode();
    for (int n = random.nextInt(4); n > 0; n--) {
      a.add(value(depth - 1));
    }
    return a;
  }

  /** A new key, now and then one that looks like an index or a part's name. */
  private String key() {
    return switch (random.nextInt(8)) {
      case 0 -> Integer.toString(random.nextInt(3));
      case 1 -> List.of("Put", "Delete", "Patch", "", "a.b", "\"").get(random.nextInt(6));
      default -> "k" + keys++;
    };
  }

  /** As {@link #edit}, the result an object, as a policy's data in the file is. */
  JsonNode editObject(JsonNode node, int depth) {
    JsonNode edited = edit(node, depth);
    return edited.isObject() ? edited : editObject(node, depth);
  }

  /** {@code node} with one random edit somewhere inside, or replaced. */
  JsonNode edit(JsonNode node, int depth) {
    if (node instanceof ObjectNode o && o.size() > 0 && random.nextInt(4) > 0) {
      return editObject(o, depth);
    }
    if (node instanceof ArrayNode a && a.size() > 0 && random.nextInt(4) > 0) {
      return editArray(a, depth);
    }
    if (node instanceof ObjectNode o && random.nextBoolean()) {
      ObjectNode copy = o.deepCopy();
      copy.set(key(), value(depth - 1));
      return copy;
    }
    return value(Math.max(depth, 1));
  }

  private ObjectNode editObject(ObjectNode o, int depth) {
    List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
    o.properties().forEach(entries::add);
    int at = random.nextInt(entries.size());
    String key = entries.get(at).getKey();
    ObjectNode copy = NODES.objectNode();
    switch (random.nextInt(6)) {
      case 0 -> { // removed
        entries.remove(at);
        entries.forEach(e -> copy.set(e.getKey(), e.getValue()));
      }
      case 1 -> { // a new key at a random place
        String added = key();
        entries.add(random.nextInt(entries.size() + 1), Map.entry(added, value(depth - 1)));
        entries.forEach(e -> copy.set(e.getKey(), e.getValue()));
      }
      case 2 -> { // moved to the end, unchanged or not
        Map.Entry<String, JsonNode> moved = entries.remove(at);
        entries.forEach(e -> copy.set(e.getKey(), e.getValue()));
        copy.set(key, random.nextBoolean() ? moved.getValue() : value(depth - 1));
      }
      default -> { // changed in place
        entries.forEach(e -> copy.set(e.getKey(), e.getValue()));
        copy.set(key, edit(o.get(key), depth - 1));
      }
    }
    return copy;
  }

  private ArrayNode editArray(ArrayNode a, int depth) {
    ArrayNode copy = NODES.arrayNode();
    a.forEach(copy::add);
    int at = random.nextInt(a.size());
    switch (random.nextInt(4)) {
      case 0 -> copy.remove(at);
      case 1 -> copy.insert(at, value(depth - 1));
      default -> copy.set(at, edit(a.get(at), depth - 1));
    }
    return copy;
  }
}
