package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.controllers.ControllerMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** Reads and prints section {@code resource-manager} and its child {@code control}. */
final class ResourceManagerSection {
  static final String NAME = "resource-manager";
  static final String CONTROL = "control";
  static final String PAGE_MIGRATION = "page-migration";
  private static final String CONTROLLERS = "Controllers";

  private ResourceManagerSection() {}

  static ResourceManagerConfig read(String source, @Nullable JsonNode node) {
    SectionReader top = SectionReader.of(source, NAME, node, List.of(), List.of(CONTROL));
    SectionReader control =
        SectionReader.of(
            source,
            top.path(CONTROL),
            top.section(CONTROL).orElse(null),
            List.of(CONTROLLERS),
            List.of(PAGE_MIGRATION));
    Map<String, ControllerMode> modes = new LinkedHashMap<>();
    control
        .scalarMap(CONTROLLERS)
        .forEach((name, mode) -> modes.put(name, parseMode(control, name, mode)));
    Map<String, JsonNode> sections = new LinkedHashMap<>();
    control
        .sections()
        .forEach((name, value) -> sections.put(name, control.mapping(control.path(name), value)));
    return new ResourceManagerConfig(modes, sections);
  }

  private static ControllerMode parseMode(SectionReader control, String name, String mode) {
    return control.convert(
        CONTROLLERS + "." + name,
        JsonNodeFactory.instance.textNode(mode),
        mode,
        ResourceManagerSection::mode);
  }

  private static ControllerMode mode(String text) {
    try {
      return ControllerMode.parse(text);
    } catch (IllegalArgumentException e) {
      // ControllerMode's message repeats the value; keep only the list of accepted modes.
      String message = String.valueOf(e.getMessage());
      throw new IllegalArgumentException(message.substring(message.indexOf("expected")), e);
    }
  }

  static ObjectNode write(ResourceManagerConfig config) {
    ObjectNode control = JsonNodeFactory.instance.objectNode();
    control.set(CONTROLLERS, Trees.sortedStrings(config.controllers()));
    new TreeMap<>(config.controlSections()).forEach(control::set);
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.set(CONTROL, control);
    return node;
  }
}
