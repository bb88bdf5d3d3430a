package io.criresmgr.proxy.core;

import io.criresmgr.policy.PolicyMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The active policy's gauges ({@link PolicyMetrics}) in Prometheus text format, collected in a
 * pipeline step at scrape time and appended to {@code /metrics}.
 */
public final class PolicyGauges {
  private PolicyGauges() {}

  /** The gauges as Prometheus text; empty if the policy exports none. */
  public static String text(Pipeline pipeline) throws InterruptedException {
    try {
      List<PolicyMetrics.Gauge> gauges =
          pipeline
              .run(
                  s ->
                      s.policy().policy() instanceof PolicyMetrics m
                          ? m.collect(s.cache())
                          : List.<PolicyMetrics.Gauge>of())
              .get(5, TimeUnit.SECONDS);
      return render(gauges);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot collect policy metrics: " + e, e);
    }
  }

  static String render(List<PolicyMetrics.Gauge> gauges) {
    Map<String, List<PolicyMetrics.Gauge>> byName = new LinkedHashMap<>();
    gauges.forEach(g -> byName.computeIfAbsent(g.name(), n -> new java.util.ArrayList<>()).add(g));
    StringBuilder out = new StringBuilder();
    byName.forEach(
        (name, samples) -> {
          out.append("# HELP ").append(name).append(' ').append(samples.get(0).help()).append('\n');
          out.append("# TYPE ").append(name).append(" gauge\n");
          samples.forEach(
              g -> out.append(name).append(labels(g)).append(' ').append(g.value()).append('\n'));
        });
    return out.toString();
  }

  private static String labels(PolicyMetrics.Gauge g) {
    if (g.labels().isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("{");
    new TreeMap<>(g.labels())
        .forEach(
            (k, v) -> {
              if (out.length() > 1) {
                out.append(',');
              }
              out.append(k)
                  .append("=\"")
                  .append(v.replace("\\", "\\\\").replace("\"", "\\\""))
                  .append('"');
            });
    return out.append('}').toString();
  }
}
