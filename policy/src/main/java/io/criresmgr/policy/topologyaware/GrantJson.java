package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.MemoryType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The JSON form of a {@link Grant} in the policy data ({@code {"allocations": {cacheId: grant}}}).
 * Pools are stored by name, so a grant can be matched against a rebuilt tree. Example:
 *
 * <pre>{@code
 * {"pool": "NUMA node #1", "kind": "normal", "exclusive": "4", "isolated": "", "fraction": 0,
 *  "memoryPool": "NUMA node #1", "memoryTypes": "dram", "memset": "1",
 *  "memory": {"dram": 104857600, "pmem": 0, "hbm": 0}}
 * }</pre>
 *
 * <p>Optional fields: {@code coldStartMs} and {@code coldStartDeadline} (epoch milliseconds) while
 * a cold start is pending, {@code hideHyperthreads} and {@code memoryPreserve} when true.
 */
final class GrantJson {
  /** The key of the grants in the policy data. */
  static final String ALLOCATIONS = "allocations";

  private GrantJson() {}

  /** The JSON of {@code g}. */
  static ObjectNode write(Grant g, PoolTree tree) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("pool", tree.pool(g.pool()).name());
    n.put("kind", label(g.kind()));
    n.put("exclusive", g.exclusive().toString());
    n.put("isolated", g.exclusive().intersection(tree.pool(g.pool()).isolated()).toString());
    number(n, "fraction", g.fractionMilli());
    n.put("memoryPool", tree.pool(g.memoryPool()).name());
    n.put("memoryTypes", types(g.memoryTypes()));
    n.put("memset", g.memset().toString().intern()); // a few NUMA node sets, held by every grant
    ObjectNode mem = n.putObject("memory");
    for (MemoryType t : MemoryType.values()) {
      number(mem, t.label(), g.memory().get(t));
    }
    if (g.inColdStart()) {
      number(n, "coldStartMs", g.coldStart().toMillis());
      number(n, "coldStartDeadline", g.coldStartDeadline());
    }
    if (g.hideHyperthreads()) {
      n.put("hideHyperthreads", true);
    }
    if (g.memoryPreserve()) {
      n.put("memoryPreserve", true);
    }
    return n;
  }

  /** The kind as the JSON names it: a constant, not a string per grant (every grant holds one). */
  private static String label(CpuKind kind) {
    return switch (kind) {
      case NORMAL -> "normal";
      case RESERVED -> "reserved";
      case PRESERVE -> "preserve";
    };
  }

  /**
   * Puts {@code value} as an int when it fits, as a JSON parser reads it back, so stored and parsed
   * data compare equal.
   */
  static void number(ObjectNode n, String field, long value) {
    if (value == (int) value) {
      n.put(field, (int) value);
    } else {
      n.put(field, value);
    }
  }

  /**
   * Reads the grant of container {@code cacheId}.
   *
   * @throws IllegalArgumentException naming the field that is missing or malformed
   */
  static StoredGrant read(String cacheId, JsonNode n) {
    Memory memory = Memory.NONE;
    for (MemoryType t : MemoryType.values()) {
      memory = memory.plus(t, n.path("memory").path(t.label()).asLong(0));
    }
    return new StoredGrant(
        cacheId,
        kind(text(n, "kind")),
        text(n, "pool"),
        CpuSet.parse(n.path("exclusive").asText("")),
        n.path("fraction").asLong(0),
        text(n, "memoryPool"),
        parseTypes(n.path("memoryTypes").asText("")),
        CpuSet.parse(n.path("memset").asText("")),
        memory,
        Duration.ofMillis(n.path("coldStartMs").asLong(0)),
        n.path("coldStartDeadline").asLong(0),
        n.path("hideHyperthreads").asBoolean(false),
        n.path("memoryPreserve").asBoolean(false));
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("field " + field + " missing or not a string");
    }
    return v.textValue();
  }

  private static CpuKind kind(String text) {
    try {
      return CpuKind.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown kind \"" + text + "\"", e);
    }
  }

  /** Comma-separated labels, e.g. {@code dram,pmem}; a single type's is its shared label. */
  static String types(Set<MemoryType> types) {
    if (types.size() == 1) {
      return types.iterator().next().label();
    }
    StringJoiner j = new StringJoiner(",");
    for (MemoryType t : MemoryType.values()) {
      if (types.contains(t)) {
        j.add(t.label());
      }
    }
    return j.toString();
  }

  private static Set<MemoryType> parseTypes(String text) {
    Set<MemoryType> types = EnumSet.noneOf(MemoryType.class);
    for (String label : text.split(",", -1)) {
      if (!label.isBlank()) {
        types.add(MemoryType.valueOf(label.trim().toUpperCase(Locale.ROOT)));
      }
    }
    return types;
  }
}
