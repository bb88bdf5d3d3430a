package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Reads and prints section {@code dump}. */
final class DumpSection {
  static final String NAME = "dump";
  private static final List<String> FIELDS = List.of("Config", "File", "Debug", "Disabled");

  private DumpSection() {}

  static DumpConfig read(String source, @Nullable JsonNode node) {
    SectionReader r = SectionReader.of(source, NAME, node, FIELDS, List.of());
    DumpConfig d = DumpConfig.defaults();
    return new DumpConfig(
        r.parsed("Config", d.config(), DumpSection::checkRules),
        r.string("File", d.file()),
        r.bool("Debug", d.debug()),
        r.bool("Disabled", d.disabled()));
  }

  private static String checkRules(String rules) {
    DumpRules.parse(rules);
    return rules;
  }

  static ObjectNode write(DumpConfig config) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("Config", config.config());
    node.put("File", config.file());
    node.put("Debug", config.debug());
    node.put("Disabled", config.disabled());
    return node;
  }
}
