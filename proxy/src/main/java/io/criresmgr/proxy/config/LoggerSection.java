package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Reads and prints section {@code logger}. */
final class LoggerSection {
  static final String NAME = "logger";
  private static final List<String> FIELDS = List.of("Debug", "Klog", "LogSource");

  /** The klog flags cri-resmgr accepted in {@code logger.Klog}. */
  static final List<String> KLOG_FLAGS =
      List.of(
          "add_dir_header",
          "alsologtostderr",
          "log_backtrace_at",
          "log_dir",
          "log_file",
          "log_file_max_size",
          "logtostderr",
          "one_output",
          "skip_headers",
          "skip_log_headers",
          "stderrthreshold",
          "v",
          "vmodule");

  private LoggerSection() {}

  static LoggerConfig read(String source, @Nullable JsonNode node) {
    SectionReader r = SectionReader.of(source, NAME, node, FIELDS, List.of());
    LoggerConfig d = LoggerConfig.defaults();
    String debug = r.parsed("Debug", d.debug(), LoggerSection::checkDebug);
    Map<String, String> klog = r.scalarMap("Klog");
    for (String flag : klog.keySet()) {
      if (!KLOG_FLAGS.contains(flag)) {
        throw r.error(
            "Klog." + flag, "unknown key, expected one of " + String.join(", ", KLOG_FLAGS));
      }
    }
    return new LoggerConfig(debug, klog, r.bool("LogSource", d.logSource()));
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
