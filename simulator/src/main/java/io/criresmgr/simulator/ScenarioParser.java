package io.criresmgr.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.criresmgr.cache.CpuSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses scenario files (format: docs/scenarios.md). */
final class ScenarioParser {
  static final List<String> KEYS =
      List.of(
          "description",
          "topology",
          "isolcpus",
          "cgroups",
          "devices",
          "config",
          "webhook",
          "steps");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .build();

  private ScenarioParser() {}

  /** Parses the scenario in {@code text}; {@code source} names it in errors. */
  static Scenario parse(String source, String text) {
    ScenarioNode root = LocatedYaml.read(source, text);
    root.mapping(KEYS);
    Map<String, HostDevice> devices =
        root.optional("devices").map(ScenarioParser::devices).orElse(Map.of());
    List<Step> steps = new ArrayList<>();
    root.required("steps").list().forEach(s -> steps.add(StepParser.parse(s, devices.keySet())));
    return new Scenario(
        source,
        root.optional("topology").map(ScenarioParser::topology).orElse(""),
        root.optional("isolcpus").map(n -> n.parsed(ScenarioParser::cpuList)).orElse(CpuSet.EMPTY),
        root.optional("cgroups").map(ScenarioParser::cgroups).orElse(Map.of()),
        devices,
        root.optional("config").map(ScenarioParser::configText).orElse(""),
        root.optional("webhook").map(ScenarioNode::bool).orElse(false),
        steps);
  }

  /** A topology: a built-in name, or a spec as JSON text or as a YAML list or mapping. */
  private static String topology(ScenarioNode node) {
    if (node.isList() || node.isMapping()) {
      try {
        return JSON.writeValueAsString(node.json());
      } catch (JsonProcessingException e) {
        throw node.error("cannot write the spec as JSON: " + e.getOriginalMessage());
      }
    }
    return node.text();
  }

  /** A configuration: YAML text, or a mapping written in place. */
  static String configText(ScenarioNode node) {
    if (node.isMapping()) {
      try {
        return YAML.writeValueAsString(node.json());
      } catch (JsonProcessingException e) {
        throw node.error("cannot write the configuration as YAML: " + e.getOriginalMessage());
      }
    }
    return node.text();
  }

  private static Map<String, CpuSet> cgroups(ScenarioNode node) {
    Map<String, CpuSet> out = new LinkedHashMap<>();
    for (Map.Entry<String, ScenarioNode> e : node.mapping().entrySet()) {
      String name = e.getKey();
      if (name.isEmpty() || name.startsWith("/") || name.contains("..")) {
        throw e.getValue().error("a cgroup name is a relative path below the cpuset mount");
      }
      out.put(name, e.getValue().parsed(ScenarioParser::cpuList));
    }
    return out;
  }

  /** Host path to {@code {numa: N, cpus: LIST}} (both optional), in file order. */
  private static Map<String, HostDevice> devices(ScenarioNode node) {
    Map<String, HostDevice> out = new LinkedHashMap<>();
    for (Map.Entry<String, ScenarioNode> e : node.mapping().entrySet()) {
      String path = e.getKey();
      ScenarioNode value = e.getValue();
      if (!path.startsWith("/") || path.endsWith("/") || path.contains("..")) {
        throw value.error("a device is an absolute host path such as /dev/vfio/7");
      }
      if (value.isNull()) {
        out.put(path, new HostDevice(-1, CpuSet.EMPTY));
        continue;
      }
      value.mapping(List.of("numa", "cpus"));
      out.put(
          path,
          new HostDevice(
              value.optional("numa").map(ScenarioNode::integer).orElse(-1),
              value
                  .optional("cpus")
                  .map(n -> n.parsed(ScenarioParser::cpuList))
                  .orElse(CpuSet.EMPTY)));
    }
    return out;
  }

  private static CpuSet cpuList(String text) {
    return CpuSet.parse(text.trim());
  }
}
