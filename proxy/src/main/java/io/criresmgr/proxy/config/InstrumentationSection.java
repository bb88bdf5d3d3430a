package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.GoDuration;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Reads and prints section {@code instrumentation}. */
final class InstrumentationSection {
  static final String NAME = "instrumentation";
  private static final List<String> FIELDS =
      List.of(
          "Sampling",
          "ReportPeriod",
          "JaegerCollector",
          "JaegerAgent",
          "HTTPEndpoint",
          "PrometheusExport",
          "RemoteIntrospection");

  private InstrumentationSection() {}

  static InstrumentationConfig read(String source, @Nullable JsonNode node) {
    SectionReader r = SectionReader.of(source, NAME, node, FIELDS, List.of());
    InstrumentationConfig d = InstrumentationConfig.defaults();
    return new InstrumentationConfig(
        sampling(r, d.sampling()),
        r.parsed("ReportPeriod", d.reportPeriod(), InstrumentationSection::period),
        r.string("JaegerCollector", d.jaegerCollector()),
        r.string("JaegerAgent", d.jaegerAgent()),
        r.parsed("HTTPEndpoint", d.httpEndpoint(), InstrumentationSection::endpoint),
        r.bool("PrometheusExport", d.prometheusExport()),
        r.bool("RemoteIntrospection", d.remoteIntrospection()));
  }

  /** Sampling is a word or a number; both are kept as text. */
  private static String sampling(SectionReader r, String dflt) {
    return r.field("Sampling")
        .map(
            v -> {
              String text = v.isNumber() ? v.asText() : v.isTextual() ? v.textValue() : "";
              r.convert("Sampling", v, text, Sampling::ratio);
              return text;
            })
        .orElse(dflt);
  }

  private static Duration period(String text) {
    Duration d = GoDuration.parse(text);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("expected a positive duration such as 15s or 1m30s");
    }
    return d;
  }

  private static String endpoint(String text) {
    HttpEndpoint.check(text);
    return text;
  }

  static ObjectNode write(InstrumentationConfig config) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("Sampling", config.sampling());
    node.put("ReportPeriod", GoDuration.format(config.reportPeriod()));
    node.put("JaegerCollector", config.jaegerCollector());
    node.put("JaegerAgent", config.jaegerAgent());
    node.put("HTTPEndpoint", config.httpEndpoint());
    node.put("PrometheusExport", config.prometheusExport());
    node.put("RemoteIntrospection", config.remoteIntrospection());
    return node;
  }
}
