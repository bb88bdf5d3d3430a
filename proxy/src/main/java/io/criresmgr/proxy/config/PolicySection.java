package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.PolicyRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/** Reads and prints section {@code policy}. */
final class PolicySection {
  static final String NAME = "policy";

  /**
   * Policies of cri-resmgr that are not registered yet; their sub-sections are accepted (and kept)
   * so that configurations written for cri-resmgr load.
   */
  static final List<String> KNOWN_POLICY_NAMES =
      List.of(
          "topology-aware",
          "memtier",
          "balloons",
          "static",
          "static-plus",
          "static-pools",
          "podpools",
          "dynamic-pools",
          "template",
          "memory-qos");

  private static final List<String> FIELDS =
      List.of("Active", "AvailableResources", "ReservedResources");

  private PolicySection() {}

  /** Sub-section names: registered and known policy names, sorted. */
  static List<String> sectionNames(PolicyRegistry policies) {
    TreeSet<String> names = new TreeSet<>(KNOWN_POLICY_NAMES);
    names.addAll(policies.names());
    return List.copyOf(names);
  }

  static PolicyConfig read(String source, @Nullable JsonNode node, PolicyRegistry policies) {
    SectionReader r = SectionReader.of(source, NAME, node, FIELDS, sectionNames(policies));
    PolicyConfig defaults = PolicyConfig.defaults();
    String active = r.string("Active", defaults.active());
    if (policies.find(active).isEmpty()) {
      throw r.invalid(
          "Active",
          r.field("Active").orElseGet(() -> TextNode.valueOf(active)),
          "expected one of " + String.join(", ", policies.names()));
    }
    Map<String, JsonNode> options = new LinkedHashMap<>();
    r.sections().forEach((name, value) -> options.put(name, r.mapping(r.path(name), value)));
    checkOptions(source, policies, active, options);
    return new PolicyConfig(
        active, r.scalarMap("AvailableResources"), r.scalarMap("ReservedResources"), options);
  }

  /** The active policy's options are checked at load time, so a bad file is never applied. */
  private static void checkOptions(
      String source, PolicyRegistry policies, String active, Map<String, JsonNode> options) {
    PolicyProvider<?> provider = policies.find(active).orElseThrow();
    try {
      provider.parseOptions(options.getOrDefault(active, JsonNodeFactory.instance.objectNode()));
    } catch (PolicyException e) {
      throw new ConfigException(source + ": " + e.getMessage(), e);
    }
  }

  static ObjectNode write(PolicyConfig config) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("Active", config.active());
    node.set("AvailableResources", Trees.sortedStrings(config.availableResources()));
    node.set("ReservedResources", Trees.sortedStrings(config.reservedResources()));
    new TreeMap<>(config.options()).forEach((name, value) -> node.set(name, value));
    return node;
  }
}
