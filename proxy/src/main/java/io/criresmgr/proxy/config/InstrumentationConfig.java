package io.criresmgr.proxy.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Section {@code instrumentation}.
 *
 * @param sampling trace sampling: {@code disabled}, {@code production}, {@code testing} or a ratio
 * @param reportPeriod how often trace views are reported
 * @param jaegerCollector Jaeger collector endpoint (accepted; tracing export is not implemented)
 * @param jaegerAgent Jaeger agent endpoint (accepted; tracing export is not implemented)
 * @param httpEndpoint listen address of the HTTP server ({@code /metrics}, {@code /introspect});
 *     empty for none
 * @param prometheusExport whether {@code /metrics} is served
 * @param remoteIntrospection whether {@code /introspect} answers clients on other hosts; by default
 *     only loopback clients may read it (it lists pods, namespaces and UIDs)
 */
public record InstrumentationConfig(
    String sampling,
    Duration reportPeriod,
    String jaegerCollector,
    String jaegerAgent,
    String httpEndpoint,
    boolean prometheusExport,
    boolean remoteIntrospection) {
  /** The default HTTP listen address. */
  public static final String DEFAULT_HTTP_ENDPOINT = ":8891";

  /** Checks for nulls. */
  public InstrumentationConfig {
    Objects.requireNonNull(sampling, "sampling");
    Objects.requireNonNull(reportPeriod, "reportPeriod");
    Objects.requireNonNull(jaegerCollector, "jaegerCollector");
    Objects.requireNonNull(jaegerAgent, "jaegerAgent");
    Objects.requireNonNull(httpEndpoint, "httpEndpoint");
  }

  /** The section without {@code RemoteIntrospection}: introspection for loopback clients only. */
  public InstrumentationConfig(
      String sampling,
      Duration reportPeriod,
      String jaegerCollector,
      String jaegerAgent,
      String httpEndpoint,
      boolean prometheusExport) {
    this(
        sampling,
        reportPeriod,
        jaegerCollector,
        jaegerAgent,
        httpEndpoint,
        prometheusExport,
        false);
  }

  /** The trace sampling ratio of {@link #sampling}, between 0 and 1. */
  public double samplingRatio() {
    return Sampling.ratio(sampling);
  }

  /** Metrics served on {@code :8891}, introspection to loopback clients only, tracing off. */
  public static InstrumentationConfig defaults() {
    return new InstrumentationConfig(
        "disabled", Duration.ofSeconds(15), "", "", DEFAULT_HTTP_ENDPOINT, true);
  }
}
