package io.criresmgr.proxy.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.proxy.config.DumpConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DumpRulesTest {
  @ParameterizedTest(name = "{0} / {1} -> {2}")
  @CsvSource(
      delimiter = ';',
      value = {
        // cri-resmgr's default rules
        DumpConfig.DEFAULT_RULES + "; CreateContainer; NAME",
        DumpConfig.DEFAULT_RULES + "; RunPodSandbox; NAME",
        DumpConfig.DEFAULT_RULES + "; Version; OFF",
        DumpConfig.DEFAULT_RULES + "; ListImages; OFF",
        DumpConfig.DEFAULT_RULES + "; RemoveImage; OFF",
        // the full dumper
        "full:.*; ListContainers; FULL",
        // an exact name decides at once, even before a later pattern
        "full:Version,off:.*; Version; FULL",
        "full:Version,off:.*; Status; OFF",
        // the last matching pattern wins
        "name:.*Container.*,full:Create.*; CreateContainer; FULL",
        "name:.*Container.*,full:Create.*; StopContainer; NAME",
        // a level carries over to following items; the first defaults to full
        "Version,Status; Status; FULL",
        "off:Version,Status; Status; OFF",
        // aliases and the * wildcard
        "verbose:*; Anything; FULL",
        "short:*,suppress:Version; Version; OFF",
        // no match is off
        "full:Version; Status; OFF",
        "' '; Version; OFF",
      })
  void levelOf(String spec, String method, DumpLevel expected) {
    assertEquals(expected, DumpRules.parse(spec.strip()).levelFor(method));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "loud:.*; invalid dump rule \"loud:.*\": level must be one of off, suppress, name, short,"
            + " full, verbose",
        "full:(Create; invalid dump rule \"full:(Create\": bad regular expression: Unclosed group",
      })
  void rejectsBadRules(String spec, String message) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DumpRules.parse(spec));
    assertEquals(message, e.getMessage());
  }
}
