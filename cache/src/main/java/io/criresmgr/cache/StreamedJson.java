package io.criresmgr.cache;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Writing the cache file's records with a {@link JsonGenerator}, in the form Jackson databind gives
 * them with {@code ORDER_MAP_ENTRIES_BY_KEYS}: the records' {@code write} methods use it instead of
 * databind, whose serializers cost tens of milliseconds to build on the first save
 * (docs/benchmarks.md, "The cache file's encoder").
 */
final class StreamedJson {
  private StreamedJson() {}

  /** How one value of a map or list is written. */
  @FunctionalInterface
  interface ValueWriter<T> {
    void write(JsonGenerator g, T value) throws IOException;
  }

  /** {@code "name":{...}} with string values, keys sorted. */
  static void stringMap(JsonGenerator g, String name, Map<String, String> map) throws IOException {
    map(g, name, map, JsonGenerator::writeString);
  }

  /** {@code "name":{...}}, keys sorted as databind sorts them: a sorted map keeps its order. */
  static <T> void map(JsonGenerator g, String name, Map<String, T> map, ValueWriter<T> values)
      throws IOException {
    g.writeObjectFieldStart(name);
    for (Map.Entry<String, T> e : sorted(map).entrySet()) {
      g.writeFieldName(e.getKey());
      values.write(g, e.getValue());
    }
    g.writeEndObject();
  }

  /** {@code "name":[...]} in the collection's order. */
  static <T> void list(JsonGenerator g, String name, Collection<T> list, ValueWriter<T> values)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (T value : list) {
      values.write(g, value);
    }
    g.writeEndArray();
  }

  /** {@code "name":value}, or {@code "name":null} for a null value. */
  static <T> void nullable(JsonGenerator g, String name, @Nullable T value, ValueWriter<T> writer)
      throws IOException {
    g.writeFieldName(name);
    if (value == null) {
      g.writeNull();
    } else {
      writer.write(g, value);
    }
  }

  private static <T> Map<String, T> sorted(Map<String, T> map) {
    return map instanceof SortedMap<String, T> ? map : new TreeMap<>(map);
  }
}
