package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Reads and prints section {@code logger}. */
final class LoggerSection {
  static final String NAME = "logger";
  private static final List<String> FIELDS = List.of("Debug", "Klog", "LogSource");

  private LoggerSection() {}

  static LoggerConfig read(String source, @Nullable JsonNode node) {
    SectionReader r = SectionReader.of(source, NAME, node, FIELDS, List.of());
    LoggerConfig d = LoggerConfig.defaults();
    String debug = r.parsed("Debug", d.debug(), LoggerSection::checkDebug);
    Map<String, String> klog = r.scalarMap("Klog");
    klog.forEach((name, value) -> checkKlog(r, name, value));
    return new LoggerConfig(debug, klog, r.bool("LogSource", d.logSource()));
  }

  private static void checkKlog(SectionReader r, String name, String value) {
    KlogFlag flag =
        KlogFlag.named(name)
            .orElseThrow(
                () ->
                    r.error(
                        "Klog." + name,
                        "unknown key, expected one of " + String.join(", ", KlogFlag.names())));
    try {
      flag.check(value);
    } catch (IllegalArgumentException e) {
      throw r.error("Klog." + name, Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  private static String checkDebug(String spec) {
    DebugSpec.parse(spec);
    return spec;
  }

  static ObjectNode write(LoggerConfig config) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("Debug", config.debug());
    node.set("Klog", Trees.sortedStrings(config.klog()));
    node.put("LogSource", config.logSource());
    return node;
  }
}
