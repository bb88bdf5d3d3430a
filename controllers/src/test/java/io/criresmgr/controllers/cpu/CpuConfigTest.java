package io.criresmgr.controllers.cpu;

import static io.criresmgr.controllers.cpu.CpuControllerTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.builtin.BuiltInControllers;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CpuConfigTest {
  private static final CpuClass TURBO =
      new CpuClass("turbo", 3000000, 3600000, 0, 2000000, 2400000);
  private static final CpuClass IDLE = new CpuClass("idle", 800000, 800000, 0, 0, 0);

  private static String message(String section) {
    return assertThrows(ControllerException.class, () -> CpuConfig.parse(json(section)))
        .getMessage();
  }

  @Test
  void parsesTheDocumentedExample() {
    CpuConfig config =
        CpuConfig.parse(
            json(
                "{'classes': {'turbo': {'minFreq': 3000000, 'maxFreq': 3600000,"
                    + " 'uncoreMinFreq': 2000000, 'uncoreMaxFreq': 2400000},"
                    + " 'idle': {'minFreq': 800000, 'maxFreq': 800000}}}"));
    assertEquals(new CpuConfig(new TreeMap<>(Map.of("turbo", TURBO, "idle", IDLE))), config);
    assertEquals(Optional.of(IDLE), config.find("idle"));
    assertEquals(Optional.empty(), config.find("Idle"));
    assertEquals(true, config.setsFrequency());
    assertEquals(true, config.setsUncore());
  }

  @Test
  void keysMatchCaseInsensitivelyAsInGoButClassNamesExactly() {
    CpuConfig config =
        CpuConfig.parse(
            json(
                "{'Classes': {'Eco': {'MINFREQ': 1, 'maxfreq': 2,"
                    + " 'EnergyPerformancePreference': 255}}}"));
    assertEquals(Optional.of(new CpuClass("Eco", 1, 2, 255, 0, 0)), config.find("Eco"));
    assertEquals(false, config.setsUncore());
  }

  @Test
  void aMissingOrEmptySectionOrClassIsEmpty() {
    assertEquals(CpuConfig.EMPTY, CpuConfig.parse(MissingNode.getInstance()));
    assertEquals(CpuConfig.EMPTY, CpuConfig.parse(NullNode.getInstance()));
    assertEquals(CpuConfig.EMPTY, CpuConfig.parse(json("{'classes': null}")));
    CpuConfig config = CpuConfig.parse(json("{'classes': {'none': null, 'zero': {}}}"));
    assertEquals(Optional.of(new CpuClass("none", 0, 0, 0, 0, 0)), config.find("none"));
    assertEquals(false, config.setsFrequency());
  }

  @Test
  void aMinimumAboveItsMaximumNamesTheClassAndBothValues() {
    assertEquals(
        "cpu.classes.turbo: minFreq 3600000 is above maxFreq 2400000: the minimum must not exceed"
            + " the maximum (0 leaves a limit alone)",
        message("{'classes': {'turbo': {'minFreq': 3600000, 'maxFreq': 2400000}}}"));
    assertEquals(
        "cpu.classes.u: uncoreMinFreq 3 is above uncoreMaxFreq 2: the minimum must not exceed"
            + " the maximum (0 leaves a limit alone)",
        message("{'classes': {'u': {'uncoreMinFreq': 3, 'uncoreMaxFreq': 2}}}"));
    // 0 leaves the maximum alone: any minimum goes.
    assertEquals(
        Optional.of(new CpuClass("t", 3600000, 0, 0, 0, 0)),
        CpuConfig.parse(json("{'classes': {'t': {'minFreq': 3600000, 'maxFreq': 0}}}")).find("t"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-1",
        "1.5",
        "'\"800000\"'",
        "4294967296",
        "true",
      })
  void aFrequencyMustBeANonNegativeIntegerInKhz(String value) {
    assertEquals(
        "cpu.classes.t.maxFreq: invalid value "
            + json(value)
            + ": expected a non-negative integer up to 4294967295 (kHz, 0 leaves it alone)",
        message("{'classes': {'t': {'maxFreq': " + value + "}}}"));
  }

  @Test
  void energyPerformancePreferenceIsAnInteger() {
    assertEquals(
        "cpu.classes.t.energyPerformancePreference: invalid value \"power\": expected a"
            + " non-negative integer up to 4294967295",
        message("{'classes': {'t': {'energyPerformancePreference': 'power'}}}"));
  }

  @Test
  void unknownKeysAndWrongShapesAreNamed() {
    assertEquals("cpu.Classses: unknown key, expected one of classes", message("{'Classses': {}}"));
    assertEquals(
        "cpu.classes.t.governor: unknown key, expected one of minFreq, maxFreq,"
            + " energyPerformancePreference, uncoreMinFreq, uncoreMaxFreq",
        message("{'classes': {'t': {'governor': 'performance'}}}"));
    assertEquals(
        "cpu.classes: invalid value [\"turbo\"]: expected a mapping of class names to their limits",
        message("{'classes': ['turbo']}"));
    assertEquals(
        "cpu.classes.t: invalid value 800000: expected a mapping",
        message("{'classes': {'t': 800000}}"));
    assertEquals(
        "cpu.classes: empty class name, a class needs a name",
        message("{'classes': {'': {'minFreq': 1}}}"));
    assertEquals("cpu: invalid value []: expected a mapping", message("[]"));
  }

  @Test
  void theConfigurationLoaderValidatesTheSectionWithThisParser() {
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () ->
                BuiltInControllers.registry()
                    .validate("cpu", json("{'classes': {'t': {'minFreq': -5}}}")));
    assertEquals(
        "cpu.classes.t.minFreq: invalid value -5: expected a non-negative integer up to"
            + " 4294967295 (kHz, 0 leaves it alone)",
        e.getMessage());
    BuiltInControllers.registry().validate("cpu", json("{'classes': {'t': {'minFreq': 5}}}"));
  }

  @Test
  void classesCheckTheirValues() {
    assertThrows(IllegalArgumentException.class, () -> new CpuClass("", 0, 0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new CpuClass("x", -1, 0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new CpuClass("x", 2, 1, 0, 0, 0));
    assertThrows(
        IllegalArgumentException.class, () -> new CpuConfig(new TreeMap<>(Map.of("other", IDLE))));
  }
}
