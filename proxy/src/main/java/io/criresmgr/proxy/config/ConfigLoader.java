package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.files.FileLimit;
import io.criresmgr.cache.files.RefusedFileException;
import io.criresmgr.cache.files.SafeFiles;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.ControllerRegistry;
import io.criresmgr.controllers.builtin.BuiltInControllers;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Parses configuration files in cri-resmgr's YAML layout into a {@link Config}, strictly.
 *
 * <p>Top-level sections: {@code policy}, {@code resource-manager}, {@code dump}, {@code logger},
 * {@code instrumentation}, and the sections of the built-in controllers ({@code cpu}, {@code rdt},
 * {@code blockio}, {@code memory-qos}, {@code memtierd}: validated by their {@link
 * io.criresmgr.controllers.ControllerSection}, kept unparsed). A dotted top-level key stands for
 * nested sections. Sections not given keep their defaults, as do fields not given. Every error is a
 * {@link ConfigException} with a message {@code SOURCE: path.to.key: what is wrong, what is
 * allowed}. See docs/configuration.md.
 *
 * <p>Thread-safe and stateless apart from the policy registry.
 */
public final class ConfigLoader {
  /** The controllers whose sections this loader accepts. */
  private static final ControllerRegistry CONTROLLERS = BuiltInControllers.registry();

  /** Top-level sections kept as JSON for their controllers. */
  public static final List<String> CONTROLLER_SECTIONS = CONTROLLERS.sectionNames();

  /** Every top-level section, in the documented order. */
  public static final List<String> SECTIONS = sections();

  private final PolicyRegistry policies;

  /** A loader accepting the policies of {@code policies} in {@code policy.Active}. */
  public ConfigLoader(PolicyRegistry policies) {
    this.policies = Objects.requireNonNull(policies, "policies");
  }

  private static List<String> sections() {
    List<String> all = new ArrayList<>(List.of(PolicySection.NAME, ResourceManagerSection.NAME));
    all.addAll(CONTROLLER_SECTIONS);
    all.addAll(List.of(DumpSection.NAME, LoggerSection.NAME, InstrumentationSection.NAME));
    return List.copyOf(all);
  }

  /** The policies this loader accepts. */
  public PolicyRegistry policies() {
    return policies;
  }

  /** A loader for the built-in policies. */
  public static ConfigLoader builtIn() {
    return new ConfigLoader(BuiltInPolicies.registry());
  }

  /**
   * Reads and parses {@code file}; errors name the file as given. It may be a symbolic link (as in
   * a ConfigMap mount); it, or its target, must be a regular file of at most {@link
   * FileLimit#CONFIG}: anything else is refused without being opened (see docs/files.md).
   */
  public Config load(Path file) {
    String source = file.toString();
    try {
      return parse(source, SafeFiles.readUtf8(file, FileLimit.CONFIG));
    } catch (NoSuchFileException e) {
      throw new ConfigException(source + ": no such file", e);
    } catch (RefusedFileException e) {
      throw new ConfigException(source + ": " + e.getReason(), e);
    } catch (CharacterCodingException e) {
      throw new ConfigException(source + ": not UTF-8 text", e);
    } catch (IOException e) {
      throw new ConfigException(source + ": cannot read: " + e, e);
    }
  }

  /** Parses {@code yaml}; {@code source} names it in error messages. */
  public Config parse(String source, String yaml) {
    return parseTree(source, YamlTrees.read(source, yaml));
  }

  /**
   * Parses a configuration given as top-level section name to that section's YAML text, the layout
   * of the node agent's ConfigMap data; no sections means the defaults. A section that is not YAML
   * is named in the error ({@code SOURCE: section NAME: line L, column C: ...}), the rest of the
   * errors are those of {@link #parse}.
   */
  public Config parseSections(String source, Map<String, String> sections) {
    ObjectNode tree = JsonNodeFactory.instance.objectNode();
    new TreeMap<>(sections)
        .forEach((name, text) -> tree.set(name, sectionTree(source, name, text)));
    return parseTree(source, tree);
  }

  private static JsonNode sectionTree(String source, String name, String text) {
    JsonNode node = YamlTrees.read(source + ": section " + name, text);
    // An empty section text is an empty section, as an absent one.
    return node.isObject() && node.isEmpty() ? NullNode.getInstance() : node;
  }

  private Config parseTree(String source, JsonNode yamlTree) {
    JsonNode tree = YamlTrees.expandDottedKeys(source, yamlTree);
    SectionReader top = SectionReader.of(source, "", tree, List.of(), SECTIONS);
    Map<String, JsonNode> controllers = new LinkedHashMap<>();
    for (String name : CONTROLLER_SECTIONS) {
      top.section(name)
          .ifPresent(v -> controllers.put(name, controllerSection(source, top, name, v)));
    }
    return new Config(
        PolicySection.read(source, top.section(PolicySection.NAME).orElse(null), policies),
        ResourceManagerSection.read(source, top.section(ResourceManagerSection.NAME).orElse(null)),
        DumpSection.read(source, top.section(DumpSection.NAME).orElse(null)),
        LoggerSection.read(source, top.section(LoggerSection.NAME).orElse(null)),
        InstrumentationSection.read(source, top.section(InstrumentationSection.NAME).orElse(null)),
        controllers);
  }

  private static JsonNode controllerSection(
      String source, SectionReader top, String name, JsonNode value) {
    JsonNode section = top.mapping(name, value);
    try {
      CONTROLLERS.validate(name, section);
    } catch (ControllerException e) {
      throw new ConfigException(source + ": " + e.getMessage(), e);
    }
    return section;
  }
}
