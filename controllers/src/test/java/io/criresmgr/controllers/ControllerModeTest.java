package io.criresmgr.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ControllerModeTest {
  @ParameterizedTest
  @CsvSource({
    "disabled, DISABLED",
    "Disable, DISABLED",
    "required, REQUIRED",
    "MANDATORY, REQUIRED",
    "optional, OPTIONAL",
    "' relaxed ', RELAXED"
  })
  void parsesModesAndCriResmgrAliasesInAnyCase(String text, ControllerMode expected) {
    assertEquals(expected, ControllerMode.parse(text));
  }

  @Test
  void rejectsAnythingElseWithTheAcceptedModes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ControllerMode.parse("strict"));
    assertEquals(
        "invalid controller mode \"strict\", expected one of disabled, required, optional, relaxed",
        e.getMessage());
  }

  @Test
  void printsInLowerCase() {
    assertEquals("optional", ControllerMode.OPTIONAL.toString());
  }
}
