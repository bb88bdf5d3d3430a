package io.criresmgr.policy.sysfs;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.TopologySpec.DefaultDistances;
import io.criresmgr.policy.sysfs.TopologySpec.Group;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Parses spec text (JSON is YAML flow, so one YAML parser reads both) into a {@link TopologySpec};
 * errors are {@code <source>: group <i>: <key>: <value>: <why>}.
 */
final class SpecParser {
  private static final List<String> DISTANCE_KEYS =
      List.of("dist-same-die", "dist-same-package", "dist-other-package");
  private static final List<String> TOP_KEYS =
      List.of(
          "groups", "isolcpus", "numa", "dist-same-die", "dist-same-package", "dist-other-package");
  private static final YAMLMapper YAML = yaml();

  private final String source;
  private final int[] distances = {
    DefaultDistances.REFERENCE.sameDie(),
    DefaultDistances.REFERENCE.samePackage(),
    DefaultDistances.REFERENCE.otherPackage()
  };

  private SpecParser(String source) {
    this.source = source;
  }

  private static YAMLMapper yaml() {
    YAMLMapper mapper = new YAMLMapper();
    mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    return mapper;
  }

  /** Parses {@code text}; {@code source} starts error messages (a file, "topology spec"). */
  static TopologySpec parse(String text, String source) {
    return new SpecParser(source).parse(text);
  }

  private TopologySpec parse(String text) {
    JsonNode root;
    try {
      root = YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw error("not JSON or YAML: " + e.getOriginalMessage());
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      throw error("empty, expected a list of groups such as [{\"mem\":\"2G\",\"cores\":2}]");
    }
    JsonNode list = root;
    CpuSet isolated = CpuSet.EMPTY;
    boolean numa = true;
    if (root.isObject()) {
      checkKeys(root, TOP_KEYS, "");
      list = root.path("groups");
      isolated = isolcpus(root.get("isolcpus"));
      numa = numa(root.get("numa"));
      readDistances(root, "");
    }
    if (!list.isArray() || list.isEmpty()) {
      throw error("expected a non-empty list of groups, got " + list);
    }
    List<Group> groups = groups(list);
    try {
      return new TopologySpec(groups, isolated, defaults(), numa);
    } catch (IllegalArgumentException e) {
      throw error(Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  private List<Group> groups(JsonNode list) {
    List<Group> groups = new ArrayList<>();
    int threads = firstThreads(list);
    for (int i = 0; i < list.size(); i++) {
      String where = "group " + i + ": ";
      JsonNode node = list.get(i);
      if (!node.isObject()) {
        throw error(where + "expected an object such as {\"mem\":\"2G\",\"cores\":2}, got " + node);
      }
      checkKeys(node, GroupReader.KEYS, where);
      readDistances(node, where);
      try {
        groups.add(new GroupReader(node, threads).group());
      } catch (IllegalArgumentException e) {
        throw error(where + e.getMessage());
      }
    }
    return groups;
  }

  /** The reference's threads default: that of the first group with cores, else 2. */
  private int firstThreads(JsonNode list) {
    for (JsonNode node : list) {
      if (node.path("cores").asInt(0) > 0) {
        return node.path("threads").asInt(2);
      }
    }
    return 2;
  }

  private void checkKeys(JsonNode object, List<String> known, String where) {
    Iterator<String> names = object.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!known.contains(name)) {
        throw error(where + name + ": unknown key, expected one of " + String.join(", ", known));
      }
    }
  }

  private CpuSet isolcpus(JsonNode value) {
    if (value == null) {
      return CpuSet.EMPTY;
    }
    try {
      return CpuSet.parse(value.asText());
    } catch (IllegalArgumentException e) {
      throw error("isolcpus: " + value + ": " + e.getMessage());
    }
  }

  /** {@code numa}: {@code on} (the default) or {@code off} (YAML's booleans too). */
  private boolean numa(@Nullable JsonNode value) {
    if (value == null) {
      return true;
    }
    return switch (value.asText()) {
      case "on", "true" -> true;
      case "off", "false" -> false;
      default -> throw error("numa: " + value + ": expected on or off");
    };
  }

  private void readDistances(JsonNode object, String where) {
    int i = 0;
    for (String key : DISTANCE_KEYS) {
      JsonNode value = object.get(key);
      if (value != null) {
        try {
          distances[i] = GroupReader.integer(key, value, 11);
        } catch (IllegalArgumentException e) {
          throw error(where + e.getMessage());
        }
      }
      i++;
    }
  }

  private DefaultDistances defaults() {
    try {
      return new DefaultDistances(distances[0], distances[1], distances[2]);
    } catch (IllegalArgumentException e) {
      throw error(Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  private PolicyException error(String message) {
    return new PolicyException(source + ": " + message);
  }
}
