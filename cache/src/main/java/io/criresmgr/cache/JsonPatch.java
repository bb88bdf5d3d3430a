package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What changed inside a policy's data, for the cache journal (docs/cache-format.md, "Patches inside
 * policy data"; docs/adr/0017-journal-diffs-inside-policy-data.md):
 *
 * <pre>
 * {"Delete":[key],"Put":{key:value},"Patch":{key:patch}}   an object's
 * {"Splice":[index,removed,[value]],"Put":{index:value},"Patch":{index:patch}}   a list's
 * </pre>
 *
 * For an object, {@code Delete} removes keys, {@code Put} replaces a key's value in its place or
 * appends a new key, {@code Patch} changes an existing key's value (an object or a list) the same
 * way. For a list, {@code Splice} (first) removes elements at an index and inserts others there,
 * then {@code Put} and {@code Patch} change elements by their index. Applying a patch gives the new
 * value exactly, key order included; an object whose kept keys changed order (or with a new key
 * before a kept one), a scalar and anything deeper than the bound are put whole.
 */
final class JsonPatch {
  /**
   * How many levels of objects and lists are patched: a policy's data, its members, theirs and one
   * more (topology-aware: the data, {@code allocations}, a grant, its {@code memory}; balloons: the
   * data, {@code balloons}, a balloon, its {@code containers}).
   */
  static final int MAX_DEPTH = 4;

  static final String DELETE = "Delete";
  static final String PUT = "Put";
  static final String PATCH = "Patch";
  static final String SPLICE = "Splice";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonPatch() {}

  /**
   * The patch that turns {@code from} into {@code to}, or null if {@code to} must be written whole;
   * the patch shares {@code to}'s values.
   */
  static @Nullable ObjectNode diff(JsonNode from, JsonNode to) {
    return diff(from, to, MAX_DEPTH);
  }

  private static @Nullable ObjectNode diff(JsonNode from, JsonNode to, int depth) {
    if (depth <= 0) {
      return null;
    }
    if (from instanceof ObjectNode f && to instanceof ObjectNode t) {
      return new Builder().object(f, t, depth);
    }
    if (from instanceof ArrayNode f && to instanceof ArrayNode t) {
      return new Builder().array(f, t, depth);
    }
    return null;
  }

  /**
   * Equal, key order included ({@link JsonNode#equals} ignores the order of an object's keys): the
   * same instance first, as unchanged parts of a policy's data are.
   */
  @SuppressWarnings("ReferenceEquality") // the shortcut for shared parts; equals follows
  static boolean same(JsonNode a, JsonNode b) {
    if (a == b) {
      return true;
    }
    if (a instanceof ObjectNode x && b instanceof ObjectNode y) {
      if (x.size() != y.size()) {
        return false;
      }
      Iterator<Map.Entry<String, JsonNode>> i = x.properties().iterator();
      Iterator<Map.Entry<String, JsonNode>> j = y.properties().iterator();
      while (i.hasNext()) {
        Map.Entry<String, JsonNode> e = i.next();
        Map.Entry<String, JsonNode> f = j.next();
        if (!e.getKey().equals(f.getKey()) || !same(e.getValue(), f.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof ArrayNode x && b instanceof ArrayNode y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int k = 0; k < x.size(); k++) {
        if (!same(x.get(k), y.get(k))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /** One patch being made; its parts are made when first needed. */
  private static final class Builder {
    private @Nullable ArrayNode deleted;
    private @Nullable ObjectNode put;
    private @Nullable ObjectNode patched;
    private @Nullable ArrayNode splice;

    /**
     * New keys are appended when the patch is applied, so they must follow every kept key in {@code
     * to}, and kept keys must keep their order; otherwise null (written whole).
     */
    @Nullable ObjectNode object(ObjectNode from, ObjectNode to, int depth) {
      Iterator<Map.Entry<String, JsonNode>> olds = from.properties().iterator();
      boolean added = false;
      for (Map.Entry<String, JsonNode> e : to.properties()) {
        String key = e.getKey();
        JsonNode old = from.get(key);
        if (old == null) {
          added = true;
          put(key, e.getValue());
          continue;
        }
        if (added || !skipDeletedUpTo(key, olds, to)) {
          return null;
        }
        change(key, old, e.getValue(), depth);
      }
      olds.forEachRemaining(e -> delete(e.getKey())); // every kept key was passed above
      return build();
    }

    /**
     * Advances {@code olds} to {@code key}, noting the keys {@code to} dropped on the way; false if
     * a kept key comes first (the order changed) or {@code key} is not ahead.
     */
    private boolean skipDeletedUpTo(
        String key, Iterator<Map.Entry<String, JsonNode>> olds, ObjectNode to) {
      while (olds.hasNext()) {
        String old = olds.next().getKey();
        if (old.equals(key)) {
          return true;
        }
        if (to.has(old)) {
          return false;
        }
        delete(old);
      }
      return false;
    }

    /**
     * Elements are paired by index up to the end of the shorter list's part that differs (after the
     * common prefix, before the common suffix); the rest of that part is spliced: removed from
     * {@code from} or inserted from {@code to}, right after the paired ones.
     */
    ObjectNode array(ArrayNode from, ArrayNode to, int depth) {
      int shorter = Math.min(from.size(), to.size());
      int prefix = 0;
      while (prefix < shorter && same(from.get(prefix), to.get(prefix))) {
        prefix++;
      }
      int suffix = 0;
      while (prefix + suffix < shorter
          && same(from.get(from.size() - 1 - suffix), to.get(to.size() - 1 - suffix))) {
        suffix++;
      }
      int paired = shorter - suffix;
      for (int i = prefix; i < paired; i++) {
        change(Integer.toString(i), from.get(i), to.get(i), depth);
      }
      if (from.size() != to.size()) {
        ArrayNode inserted = NODES.arrayNode();
        for (int i = paired; i < to.size() - suffix; i++) {
          inserted.add(to.get(i));
        }
        splice = NODES.arrayNode().add(paired).add(from.size() - suffix - paired).add(inserted);
      }
      return build();
    }

    private void change(String key, JsonNode old, JsonNode now, int depth) {
      if (same(old, now)) {
        return;
      }
      ObjectNode inner = diff(old, now, depth - 1);
      if (inner != null) {
        if (patched == null) {
          patched = NODES.objectNode();
        }
        patched.set(key, inner);
      } else {
        put(key, now);
      }
    }

    private void put(String key, JsonNode value) {
      if (put == null) {
        put = NODES.objectNode();
      }
      put.set(key, value);
    }

    private void delete(String key) {
      if (deleted == null) {
        deleted = NODES.arrayNode();
      }
      deleted.add(key);
    }

    private ObjectNode build() {
      ObjectNode patch = NODES.objectNode();
      if (splice != null) {
        patch.set(SPLICE, splice);
      }
      if (deleted != null) {
        patch.set(DELETE, deleted);
      }
      if (put != null) {
        patch.set(PUT, put);
      }
      if (patched != null) {
        patch.set(PATCH, patched);
      }
      return patch;
    }
  }

  /**
   * Applies {@code patch} to {@code target} (changed in place); {@code where} names the target in
   * errors.
   *
   * @throws IllegalArgumentException if it is no patch or does not fit {@code target}
   */
  static void apply(JsonNode target, JsonNode patch, String where) {
    if (!(patch instanceof ObjectNode parts)) {
      throw new IllegalArgumentException(where + ": the patch is not a JSON object");
    }
    if (target instanceof ObjectNode object) {
      applyToObject(object, parts, where);
    } else if (target instanceof ArrayNode array) {
      applyToArray(array, parts, where);
    } else {
      throw new IllegalArgumentException(
          where + ": a patch for an object or a list, found " + kind(target));
    }
  }

  private static void applyToObject(ObjectNode target, ObjectNode parts, String where) {
    for (Map.Entry<String, JsonNode> part : parts.properties()) {
      String at = where + "." + part.getKey();
      switch (part.getKey()) {
        case DELETE -> {
          if (!part.getValue().isArray()) {
            throw new IllegalArgumentException(at + ": not a list of keys");
          }
          for (JsonNode key : part.getValue()) {
            if (!key.isTextual() || target.remove(key.textValue()) == null) {
              throw new IllegalArgumentException(at + ": " + key + " is not a key of the value");
            }
          }
        }
        case PUT -> members(at, part.getValue()).forEach(e -> target.set(e.getKey(), e.getValue()));
        case PATCH -> {
          for (Map.Entry<String, JsonNode> e : members(at, part.getValue())) {
            JsonNode inner = target.get(e.getKey());
            if (inner == null) {
              throw new IllegalArgumentException(
                  at + ": " + e.getKey() + " is not a key of the value");
            }
            apply(inner, e.getValue(), where + "." + e.getKey());
          }
        }
        default -> throw unknownPart(at);
      }
    }
  }

  private static void applyToArray(ArrayNode target, ObjectNode parts, String where) {
    boolean first = true;
    for (Map.Entry<String, JsonNode> part : parts.properties()) {
      String at = where + "." + part.getKey();
      switch (part.getKey()) {
        case SPLICE -> {
          if (!first) {
            throw new IllegalArgumentException(at + ": must come first, before Put and Patch");
          }
          splice(target, part.getValue(), at);
        }
        case PUT -> {
          for (Map.Entry<String, JsonNode> e : members(at, part.getValue())) {
            target.set(index(at, e.getKey(), target), e.getValue());
          }
        }
        case PATCH -> {
          for (Map.Entry<String, JsonNode> e : members(at, part.getValue())) {
            int i = index(at, e.getKey(), target);
            apply(target.get(i), e.getValue(), where + "[" + i + "]");
          }
        }
        default ->
            throw new IllegalArgumentException(
                at + ": unknown part of a list's patch, expected Splice, Put or Patch");
      }
      first = false;
    }
  }

  // [at, removed, [inserted]]: removes that many elements at the index, inserts the others there.
  private static void splice(ArrayNode target, JsonNode splice, String where) {
    if (!splice.isArray()
        || splice.size() != 3
        || !splice.get(0).canConvertToInt()
        || !splice.get(1).canConvertToInt()
        || !splice.get(2).isArray()) {
      throw new IllegalArgumentException(where + ": not [index, count removed, [inserted]]");
    }
    int at = splice.get(0).intValue();
    int removed = splice.get(1).intValue();
    if (at < 0 || removed < 0 || at > target.size() || removed > target.size() - at) {
      throw new IllegalArgumentException(
          where + ": removes " + removed + " at " + at + " from a list of " + target.size());
    }
    for (int i = 0; i < removed; i++) {
      target.remove(at);
    }
    int i = at;
    for (JsonNode value : splice.get(2)) {
      target.insert(i++, value);
    }
  }

  private static IllegalArgumentException unknownPart(String at) {
    return new IllegalArgumentException(at + ": unknown part, expected Delete, Put or Patch");
  }

  private static Iterable<Map.Entry<String, JsonNode>> members(String where, JsonNode node) {
    if (!(node instanceof ObjectNode object)) {
      throw new IllegalArgumentException(where + ": not a JSON object");
    }
    return object.properties();
  }

  private static int index(String where, String key, ArrayNode target) {
    int i;
    try {
      i = Integer.parseInt(key);
    } catch (NumberFormatException e) {
      i = -1;
    }
    if (i < 0 || i >= target.size() || !Integer.toString(i).equals(key)) {
      throw new IllegalArgumentException(
          where + ": " + key + " is not an index of the list (0 to " + (target.size() - 1) + ")");
    }
    return i;
  }

  private static String kind(JsonNode node) {
    return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
  }
}
