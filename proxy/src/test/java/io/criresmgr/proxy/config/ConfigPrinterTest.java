package io.criresmgr.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConfigPrinterTest {
  private final ConfigLoader loader = ConfigLoader.builtIn();

  @Test
  void defaultsRoundTrip() {
    String yaml = ConfigPrinter.toYaml(Config.defaults());
    assertEquals(Config.defaults(), loader.parse("printed", yaml));
    assertTrue(yaml.startsWith("policy:\n  Active: none\n"), yaml);
    assertTrue(
        yaml.contains("  HTTPEndpoint: \":8891\"\n")
            || yaml.contains("  HTTPEndpoint: ':8891'\n")
            || yaml.contains("  HTTPEndpoint: :8891\n"),
        yaml);
  }

  @Test
  void everySectionRoundTrips() {
    Config c =
        loader.parse(
            "test.cfg",
            """
            policy:
              Active: none
              ReservedResources: {CPU: 750m}
              balloons: {IdleCPUClass: idle, BalloonTypes: [{Name: a, MinCPUs: 2}]}
            resource-manager:
              control:
                Controllers: {rdt: optional, cpu: REQUIRED}
                page-migration: {PageScanInterval: 10s}
            cpu:
              classes: {turbo: {minFreq: 3000000}}
            rdt:
              options: {mode: Full}
            blockio:
              Classes: {BestEffort: [{Weight: 90}]}
            dump:
              Config: full:.*
              File: /tmp/x.log
              Debug: true
            logger:
              Debug: "on:*,off:cache"
              Klog: {skip_headers: true, v: 4}
              LogSource: true
            instrumentation:
              Sampling: "0.5"
              ReportPeriod: 1h2m3.5s
              HTTPEndpoint: ""
              PrometheusExport: false
            """);
    String yaml = ConfigPrinter.toYaml(c);
    assertEquals(c, loader.parse("printed", yaml), yaml);
    assertTrue(yaml.contains("ReportPeriod: 1h2m3.5s\n"), yaml);
  }
}
