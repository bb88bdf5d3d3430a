package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON form of the balloons in the policy data:
 *
 * <pre>{@code
 * {"placementKey": "3f0c...", "balloons": [{"type": "default", "index": 0, "cpus": "0", "fixed": true,
 *                "containers": {"uid-p:c0": 500}}]}
 * }</pre>
 */
final class BalloonState {
  static final String BALLOONS = "balloons";
  static final String KEY = "placementKey";

  private BalloonState() {}

  /** The policy data of {@code balloons}. */
  static JsonNode write(List<Balloon> balloons) {
    return write(balloons, "");
  }

  /** The policy data of {@code balloons} built by the configuration of {@code key}. */
  static JsonNode write(List<Balloon> balloons, String key) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    if (!key.isEmpty()) {
      root.put(KEY, key);
    }
    ArrayNode list = root.putArray(BALLOONS);
    for (Balloon b : balloons) {
      ObjectNode n = list.addObject();
      n.put("type", b.type());
      n.put("index", b.index());
      n.put("cpus", b.cpus().toString());
      n.put("fixed", b.fixed());
      ObjectNode cs = n.putObject("containers");
      b.containers().forEach((id, milli) -> number(cs, id, milli));
    }
    return root;
  }

  /**
   * Puts {@code value} as JSON text would read it back (an int if it fits), so data compares equal.
   */
  private static void number(ObjectNode n, String key, long value) {
    if (value == (int) value) {
      n.put(key, (int) value);
    } else {
      n.put(key, value);
    }
  }

  /** The {@link PlacementKey} stored in {@code data}, {@code ""} if none. */
  static String key(JsonNode data) {
    return data.path(KEY).asText("");
  }

  /**
   * The balloons of {@code data}.
   *
   * @throws PolicyException if {@code data} is not in this form
   */
  static List<Balloon> read(JsonNode data) {
    JsonNode list = data.path(BALLOONS);
    if (!list.isArray()) {
      throw new PolicyException("balloons: policy data has no \"balloons\" list: " + data);
    }
    List<Balloon> out = new ArrayList<>();
    for (JsonNode n : list) {
      out.add(balloon(n));
    }
    return List.copyOf(out);
  }

  private static Balloon balloon(JsonNode n) {
    if (!n.path("type").isTextual() || !n.path("index").canConvertToInt()) {
      throw new PolicyException("balloons: malformed balloon in policy data: " + n);
    }
    Map<String, Long> containers = new TreeMap<>();
    n.path("containers")
        .properties()
        .forEach(e -> containers.put(e.getKey(), e.getValue().asLong()));
    try {
      return new Balloon(
          n.get("type").asText(),
          n.get("index").asInt(),
          CpuSet.parse(n.path("cpus").asText("")),
          n.path("fixed").asBoolean(false),
          new TreeMap<>(containers));
    } catch (IllegalArgumentException e) {
      throw new PolicyException("balloons: malformed balloon in policy data: " + n, e);
    }
  }
}
