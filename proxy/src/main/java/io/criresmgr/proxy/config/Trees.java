package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.TreeMap;

/** Small helpers for building printed configuration trees. */
final class Trees {
  private Trees() {}

  /** A mapping of {@code map}'s entries with sorted keys, values as text. */
  static ObjectNode sortedStrings(Map<String, ?> map) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    new TreeMap<>(map).forEach((k, v) -> node.put(k, v.toString()));
    return node;
  }
}
