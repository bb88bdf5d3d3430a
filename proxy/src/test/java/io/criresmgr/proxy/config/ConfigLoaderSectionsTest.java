package io.criresmgr.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ConfigLoader#parseSections}: the node agent's map of section name to YAML text. */
class ConfigLoaderSectionsTest {
  private final ConfigLoader loader = ConfigLoader.builtIn();

  @Test
  void noSectionsAreTheDefaults() {
    assertEquals(Config.defaults(), loader.parseSections("agent", Map.of()));
  }

  @Test
  void sectionsParseAsTheSameFileWould() {
    Map<String, String> sections =
        Map.of(
            "policy", "Active: topology-aware\nReservedResources:\n  cpu: 750m\n",
            "logger", "Debug: cache\n",
            "resource-manager.control", "");
    assertEquals(
        loader.parse(
            "file",
            """
            policy:
              Active: topology-aware
              ReservedResources:
                cpu: 750m
            logger:
              Debug: cache
            """),
        loader.parseSections("agent", sections));
  }

  @Test
  void anEmptySectionTextIsAnAbsentSection() {
    assertEquals(Config.defaults(), loader.parseSections("agent", Map.of("rdt", "", "dump", "")));
  }

  @Test
  void errorsNameTheSectionKeyAndValue() {
    assertStarts("agent: section logger: line 1, column ", Map.of("logger", "Debug: [x\n"));
    assertStarts(
        "agent: policy.Active: invalid value \"nosuch\": expected one of ",
        Map.of("policy", "Active: nosuch\n"));
    assertStarts(
        "agent: logger.Bogus: unknown key, expected one of ", Map.of("logger", "Bogus: 1\n"));
    assertStarts("agent: nosection: unknown ", Map.of("nosection", "a: 1\n"));
  }

  @Test
  void nriClassOptInsThatCannotWorkAreRefusedWithTheirKey() {
    assertStarts(
        "agent: rdt.options.nriClasses: true needs rdt.options.mode Discovery, not Full",
        Map.of("rdt", "options:\n  nriClasses: true\n"));
    assertStarts(
        "agent: blockio.NriClasses[0]: invalid value \"Gold\": expected one of the classes of"
            + " blockio.Classes (Slow)",
        Map.of("blockio", "Classes:\n  Slow: [{Weight: 80}]\nNriClasses: [Gold]\n"));
  }

  private void assertStarts(String prefix, Map<String, String> sections) {
    String message = message(sections);
    assertTrue(message.startsWith(prefix), message);
  }

  private String message(Map<String, String> sections) {
    return assertThrows(ConfigException.class, () -> loader.parseSections("agent", sections))
        .getMessage();
  }
}
