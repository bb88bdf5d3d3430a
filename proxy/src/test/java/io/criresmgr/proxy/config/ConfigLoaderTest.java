package io.criresmgr.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.controllers.ControllerMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  private final ConfigLoader loader = ConfigLoader.builtIn();

  private Config parse(String yaml) {
    return loader.parse("test.cfg", yaml);
  }

  @Test
  void emptyOrCommentOnlyFileGivesDefaults() {
    assertEquals(Config.defaults(), parse(""));
    assertEquals(Config.defaults(), parse("# nothing here\n"));
    assertEquals(Config.defaults(), parse("policy:\ndump:\n"));
  }

  @Test
  void policySection() {
    Config c =
        parse(
            """
            policy:
              Active: none
              AvailableResources:
                CPU: cpuset:1-15
              ReservedResources:
                CPU: 750m
                Memory: 2
              topology-aware:
                PinCPU: true
            """);
    assertEquals("none", c.policy().active());
    assertEquals(Map.of("CPU", "cpuset:1-15"), c.policy().availableResources());
    assertEquals(Map.of("CPU", "750m", "Memory", "2"), c.policy().reservedResources());
    assertTrue(c.policy().options().get("topology-aware").get("PinCPU").booleanValue());
  }

  @Test
  void resourceManagerSection() {
    Config c =
        parse(
            """
            resource-manager:
              control:
                Controllers:
                  rdt: Optional
                  blockio: relaxed
                page-migration:
                  PageScanInterval: 10s
            """);
    assertEquals(
        Map.of("rdt", ControllerMode.OPTIONAL, "blockio", ControllerMode.RELAXED),
        c.resourceManager().controllers());
    assertEquals(
        "10s",
        c.resourceManager()
            .controlSections()
            .get("page-migration")
            .get("PageScanInterval")
            .asText());
  }

  @Test
  void dumpLoggerAndInstrumentationSections() {
    Config c =
        parse(
            """
            dump:
              Config: off:.*,full:((Create)|(Start)).*
              File: /tmp/dump.log
              Debug: true
              Disabled: no
            logger:
              Debug: resource-manager,off:cache
              Klog:
                skip_headers: true
                v: 3
              LogSource: true
            instrumentation:
              Sampling: 0.25
              ReportPeriod: 1m30s
              JaegerCollector: http://jaeger:14268
              JaegerAgent: jaeger:6831
              HTTPEndpoint: 127.0.0.1:9000
              PrometheusExport: false
              RemoteIntrospection: true
            """);
    assertEquals(
        new DumpConfig("off:.*,full:((Create)|(Start)).*", "/tmp/dump.log", true, false), c.dump());
    assertEquals(
        new LoggerConfig(
            "resource-manager,off:cache", Map.of("skip_headers", "true", "v", "3"), true),
        c.logger());
    assertEquals(
        new InstrumentationConfig(
            "0.25",
            Duration.ofSeconds(90),
            "http://jaeger:14268",
            "jaeger:6831",
            "127.0.0.1:9000",
            false,
            true),
        c.instrumentation());
  }

  @Test
  void controllerSectionsAreKeptAsJson() {
    Config c = parse("rdt:\n  options:\n    mode: Full\nblockio:\n  Classes: {}\n");
    assertEquals("Full", c.controllerSections().get("rdt").get("options").get("mode").asText());
    assertTrue(c.controllerSections().containsKey("blockio"));
    assertFalse(c.controllerSections().containsKey("cpu"));
  }

  @Test
  void dottedKeysEqualNestedSections() {
    Config dotted =
        parse(
            """
            "resource-manager.control":
              Controllers: {rdt: required}
            resource-manager.control.page-migration:
              MaxPageMoveCount: 100
            policy.topology-aware:
              PinCPU: false
            """);
    Config nested =
        parse(
            """
            resource-manager:
              control:
                Controllers: {rdt: required}
                page-migration:
                  MaxPageMoveCount: 100
            policy:
              topology-aware:
                PinCPU: false
            """);
    assertEquals(nested, dotted);
  }

  @Test
  void aDottedKeyWithoutANameBetweenTheDotsIsRefused() {
    // Found by ConfigFuzzTest: "..", "." or "policy." ended in an ArrayIndexOutOfBoundsException.
    for (String key : new String[] {"..", ".", "policy.", ".policy", "policy..Active"}) {
      assertEquals(
          "test.cfg: \""
              + key
              + "\": invalid key: every part of a dotted key needs a name, as in"
              + " resource-manager.control",
          error("\"" + key + "\": 1\n"),
          key);
    }
  }

  @Test
  void fieldKeysMatchCaseInsensitivelySectionKeysDoNot() {
    assertTrue(parse("dump:\n  debug: true\n").dump().debug());
    assertEquals(
        "test.cfg: Dump: unknown key, expected one of policy, resource-manager, cpu, rdt,"
            + " blockio, memory-qos, memtierd, dump, logger, instrumentation",
        error("Dump:\n  Debug: true\n"));
    assertEquals(
        "test.cfg: policy.Topology-Aware: unknown key, expected one of Active,"
            + " AvailableResources, ReservedResources, balloons, dynamic-pools, memory-qos,"
            + " memtier, none, podpools, static, static-plus, static-pools, template,"
            + " topology-aware",
        error("policy:\n  Topology-Aware: {}\n"));
    assertEquals(
        "test.cfg: dump.debug: duplicate key (Debug is given twice, keys are case-insensitive)",
        error("dump:\n  Debug: true\n  debug: false\n"));
  }

  @Test
  void controllerSectionsAreValidatedAtLoadTime() {
    Config ok =
        parse(
            """
            memory-qos:
              classes:
              - name: bronze
                swaplimitratio: 0.5
            memtierd:
              classes:
              - name: idle
                allowswap: true
            """);
    assertEquals(
        "bronze",
        ok.controllerSections().get("memory-qos").get("classes").get(0).get("name").asText());
    assertTrue(ok.controllerSections().containsKey("memtierd"));
    assertEquals(
        "test.cfg: memory-qos.classes[0].swaplimitratio: invalid value 1.5: expected a number"
            + " from 0.0 to 1.0",
        error("memory-qos:\n  classes:\n  - name: bronze\n    swaplimitratio: 1.5\n"));
    assertTrue(
        error("blockio:\n  Classes:\n    slow:\n    - Weight: 5\n")
            .startsWith("test.cfg: blockio.Classes.slow[0].Weight: invalid value"),
        "blockio is validated");
  }

  @Test
  void unknownKeysNameTheExpectedOnes() {
    assertEquals(
        "test.cfg: dump.Files: unknown key, expected one of Config, File, Debug, Disabled",
        error("dump:\n  Files: x\n"));
    assertEquals(
        "test.cfg: resource-manager.control.Controler: unknown key, expected one of"
            + " Controllers, page-migration",
        error("resource-manager:\n  control:\n    Controler: {}\n"));
    assertEquals(
        "test.cfg: resource-manager.Control: unknown key, expected one of control",
        error("resource-manager:\n  Control: {}\n"));
    assertEquals(
        "test.cfg: logger.Klog.verbose: unknown key, expected one of add_dir_header,"
            + " alsologtostderr, log_backtrace_at, log_dir, log_file, log_file_max_size,"
            + " logtostderr, one_output, skip_headers, skip_log_headers, stderrthreshold, v,"
            + " vmodule",
        error("logger:\n  Klog:\n    verbose: 2\n"));
    assertEquals(
        "test.cfg: logger.Klog.v: invalid value \"high\", expected an integer",
        error("logger:\n  Klog:\n    v: high\n"));
    assertEquals(
        "test.cfg: logger.Klog.skip_headers: invalid value \"sometimes\", expected true or false"
            + " (also 1, 0, t, f)",
        error("logger:\n  Klog:\n    skip_headers: sometimes\n"));
  }

  @Test
  void theActivePolicysOptionsAreCheckedWhenTheFileLoads() {
    assertEquals(
        "test.cfg: policy.template.Exclusive: unknown key, expected one of ExclusiveCpus",
        error("policy:\n  Active: template\n  template:\n    Exclusive: true\n"));
  }

  @Test
  void badValuesSayWhatIsAllowed() {
    assertEquals(
        "test.cfg: policy.Active: invalid value \"podpools\": expected one of none,"
            + " memory-qos, template, topology-aware, memtier, balloons",
        error("policy:\n  Active: podpools\n"));
    assertEquals(
        "test.cfg: resource-manager.control.Controllers.rdt: invalid value \"sometimes\":"
            + " expected one of disabled, required, optional, relaxed",
        error("resource-manager:\n  control:\n    Controllers:\n      rdt: sometimes\n"));
    assertEquals(
        "test.cfg: dump.Config: invalid value \"off:.*,full:(Create\": bad rule \"full:(Create\":"
            + " invalid regular expression: Unclosed group (rules are [level:]pattern)",
        error("dump:\n  Config: off:.*,full:(Create\n"));
    assertEquals(
        "test.cfg: dump.Config: invalid value \"loud:.*\": bad rule \"loud:.*\": unknown level"
            + " \"loud\", expected off, suppress, name, short, full or verbose (rules are"
            + " [level:]pattern)",
        error("dump:\n  Config: loud:.*\n"));
    assertEquals(
        "test.cfg: logger.Debug: invalid value \"maybe:cache\": bad entry \"maybe:cache\":"
            + " state must be one of on, off, enable, disable, true, false",
        error("logger:\n  Debug: maybe:cache\n"));
    assertEquals(
        "test.cfg: instrumentation.Sampling: invalid value 2: expected disabled, production,"
            + " testing or a number between 0 and 1",
        error("instrumentation:\n  Sampling: 2\n"));
    assertEquals(
        "test.cfg: instrumentation.ReportPeriod: invalid value \"15 seconds\": expected a"
            + " duration such as 15s, 1m30s or 500ms (units ns, us, ms, s, m, h)",
        error("instrumentation:\n  ReportPeriod: 15 seconds\n"));
    assertEquals(
        "test.cfg: instrumentation.ReportPeriod: invalid value 15: expected a duration such as"
            + " 15s, 1m30s or 500ms (units ns, us, ms, s, m, h)",
        error("instrumentation:\n  ReportPeriod: 15\n"));
    assertEquals(
        "test.cfg: instrumentation.ReportPeriod: invalid value \"0s\": expected a positive"
            + " duration such as 15s or 1m30s",
        error("instrumentation:\n  ReportPeriod: 0s\n"));
    assertEquals(
        "test.cfg: instrumentation.HTTPEndpoint: invalid value \"localhost\": expected"
            + " [host]:port such as :8891, 127.0.0.1:8891 or [::1]:8891, or \"\" for no HTTP"
            + " server",
        error("instrumentation:\n  HTTPEndpoint: localhost\n"));
    assertEquals(
        "test.cfg: instrumentation.RemoteIntrospection: invalid value \"everyone\": expected true"
            + " or false",
        error("instrumentation:\n  RemoteIntrospection: everyone\n"));
  }

  @Test
  void wrongTypesAreRejected() {
    assertEquals(
        "test.cfg: dump.Debug: invalid value \"sure\": expected true or false",
        error("dump:\n  Debug: sure\n"));
    assertEquals(
        "test.cfg: dump.File: invalid value 12: expected a string", error("dump:\n  File: 12\n"));
    assertEquals(
        "test.cfg: policy.AvailableResources: invalid value [\"CPU\"]: expected a mapping",
        error("policy:\n  AvailableResources: [CPU]\n"));
    assertEquals(
        "test.cfg: policy.ReservedResources.CPU: invalid value {\"a\":1}: expected a scalar"
            + " value",
        error("policy:\n  ReservedResources:\n    CPU: {a: 1}\n"));
    assertEquals(
        "test.cfg: logger: invalid value \"verbose\": expected a mapping",
        error("logger: verbose\n"));
    assertEquals("test.cfg: rdt: invalid value [1,2]: expected a mapping", error("rdt: [1, 2]\n"));
    assertEquals("test.cfg: invalid value [\"policy\"]: expected a mapping", error("- policy\n"));
  }

  @Test
  void yamlSyntaxErrorsNameTheLine() {
    String message = error("policy:\n  Active: none\n bad indentation: x\n");
    assertTrue(message.startsWith("test.cfg: line 3, column "), message);
  }

  @Test
  void durationRoundTripsThroughGoSyntax() {
    Config c = parse("instrumentation:\n  ReportPeriod: 500ms\n");
    assertEquals(Duration.ofMillis(500), c.instrumentation().reportPeriod());
  }

  @Test
  void loadNamesMissingFile(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("missing.cfg");
    ConfigException e = assertThrows(ConfigException.class, () -> loader.load(missing));
    assertEquals(missing + ": no such file", e.getMessage());
    Path file = dir.resolve("x.cfg");
    Files.writeString(file, "dump:\n  Disabled: true\n");
    assertTrue(loader.load(file).dump().disabled());
  }

  private String error(String yaml) {
    return assertThrows(ConfigException.class, () -> parse(yaml)).getMessage();
  }
}
