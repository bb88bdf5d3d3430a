package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
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
    return write(balloons, key, new Containers());
  }

  /**
   * As {@link #write(List, String)}, taking the {@code containers} objects of balloons whose
   * containers did not change since the last call with {@code known} from there.
   */
  static JsonNode write(List<Balloon> balloons, String key, Containers known) {
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
      n.set("containers", known.json(b.containers()));
    }
    known.forgetOthers();
    return root;
  }

  /**
   * The JSON objects of the last call's containers maps, by identity: a balloon's map is frozen
   * ({@link FrozenRequests}) and shared by its copies, so a balloon whose containers did not change
   * reuses its object (nothing changes a policy data tree once made, see {@code DataMemo}). Not
   * thread-safe: one per policy, used on the pipeline thread.
   */
  static final class Containers {
    private IdentityHashMap<Map<String, Long>, ObjectNode> last = new IdentityHashMap<>();
    private IdentityHashMap<Map<String, Long>, ObjectNode> now = new IdentityHashMap<>();

    /** The JSON of {@code containers}: the last call's object for this very map, else a new one. */
    ObjectNode json(Map<String, Long> containers) {
      ObjectNode cs = last.get(containers);
      if (cs == null) {
        cs = now.get(containers);
      }
      if (cs == null) {
        cs = JsonNodeFactory.instance.objectNode();
        ObjectNode out = cs;
        containers.forEach((id, milli) -> number(out, id, milli));
      }
      now.put(containers, cs);
      return cs;
    }

    /** Keeps only the objects of this call for the next one. */
    void forgetOthers() {
      IdentityHashMap<Map<String, Long>, ObjectNode> old = last;
      last = now;
      old.clear();
      now = old;
    }
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
