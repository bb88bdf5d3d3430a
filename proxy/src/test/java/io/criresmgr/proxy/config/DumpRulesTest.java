package io.criresmgr.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.config.DumpRules.Level;
import io.criresmgr.proxy.config.DumpRules.Rule;
import java.util.List;
import org.junit.jupiter.api.Test;

class DumpRulesTest {
  @Test
  void parsesDefaultRules() {
    assertEquals(
        List.of(
            new Rule(Level.OFF, ".*"),
            new Rule(Level.NAME, "((Create)|(Start)|(Run)|(Update)|(Stop)|(Remove)).*"),
            new Rule(Level.OFF, ".*Image.*")),
        DumpRules.parse(DumpConfig.DEFAULT_RULES));
  }

  @Test
  void levelAliasesAndInheritance() {
    assertEquals(
        List.of(
            new Rule(Level.FULL, "Version"),
            new Rule(Level.OFF, "ListImages"),
            new Rule(Level.OFF, "*"),
            new Rule(Level.FULL, "CreateContainer"),
            new Rule(Level.NAME, "StopPodSandbox")),
        DumpRules.parse(
            "Version,suppress:ListImages,*,verbose:CreateContainer,short:StopPodSandbox"));
    assertTrue(DumpRules.parse("full:.*").get(0).isRegex());
    assertFalse(DumpRules.parse("*").get(0).isRegex());
    assertEquals(List.of(), DumpRules.parse(" "));
  }

  @Test
  void rejectsBadItems() {
    assertEquals(
        "bad rule \"off:\": empty pattern (rules are [level:]pattern)",
        assertThrows(IllegalArgumentException.class, () -> DumpRules.parse("full:.*,off:"))
            .getMessage());
    assertEquals(
        "bad rule \"full:[a\": invalid regular expression: Unclosed character class (rules are"
            + " [level:]pattern)",
        assertThrows(IllegalArgumentException.class, () -> DumpRules.parse("full:[a"))
            .getMessage());
  }
}
