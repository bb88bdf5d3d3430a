package io.criresmgr.adjustment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuantitiesTest {
  private static final String CPU_FORMS =
      "expected cores such as 2 or 0.5, or milli-cores such as 500m";
  private static final String MEMORY_FORMS =
      "expected bytes such as 128974848, 129e6, 129M, 123Mi or 1.5Gi"
          + " (suffixes k M G T P E, Ki Mi Gi Ti Pi Ei)";

  @ParameterizedTest
  @CsvSource({
    "500m, 500",
    "2, 2000",
    "0.5, 500",
    "1.5k, 1500000",
    "0, 0",
    "+1, 1000",
    ".25, 250",
    "1., 1000",
    "100u, 1",
    "1n, 1",
    "0.0001, 1",
    "1e3, 1000000",
    "2E-3, 2",
    "1Ki, 1024000",
  })
  void parsesCpuInMilliCpus(String text, long milli) {
    assertEquals(milli, Quantities.parseMilli(text));
  }

  @ParameterizedTest
  @CsvSource({
    "1Gi, 1073741824",
    "128974848, 128974848",
    "129e6, 129000000",
    "129M, 129000000",
    "123Mi, 128974848",
    "1.5Gi, 1610612736",
    "100m, 1",
    "1k, 1000",
    "1Ki, 1024",
    "1Ti, 1099511627776",
    "1Pi, 1125899906842624",
    "1E, 1000000000000000000",
    "7Ei, 8070450532247928832",
    "1E3, 1000",
    "0, 0",
  })
  void parsesMemoryInBytes(String text, long bytes) {
    assertEquals(bytes, Quantities.parseBytes(text));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''      | not a number",
        "abc     | not a number",
        "1 Gi    | unknown suffix \" Gi\"",
        "1K      | unknown suffix \"K\"",
        "1GB     | unknown suffix \"GB\"",
        "1e      | unknown suffix \"e\"",
        "1e100   | unknown suffix \"e100\"",
        "-1Gi    | negative",
        "8Ei     | too large",
        "' 1'    | not a number",
      })
  void rejectsBadMemoryNamingTheValueAndTheForms(String text, String why) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Quantities.parseBytes(text));
    assertEquals(
        "invalid memory quantity \"" + text + "\": " + why + "; " + MEMORY_FORMS, e.getMessage());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"2 cores | unknown suffix \" cores\"", "-500m | negative", "1e20 | too large"})
  void rejectsBadCpuNamingTheValueAndTheForms(String text, String why) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Quantities.parseMilli(text));
    assertEquals(
        "invalid CPU quantity \"" + text + "\": " + why + "; " + CPU_FORMS, e.getMessage());
  }

  @Test
  void wholeValuesKeepTheSignRoundUpAndAreEmptyForNonQuantities() {
    assertEquals(OptionalLong.of(50_000_000), Quantities.parseWhole("50M"));
    assertEquals(OptionalLong.of(1536), Quantities.parseWhole(" 1.5Ki "));
    assertEquals(OptionalLong.of(1000), Quantities.parseWhole("1e3"));
    assertEquals(OptionalLong.of(-5), Quantities.parseWhole("-5"));
    assertEquals(OptionalLong.of(1), Quantities.parseWhole("100m"));
    assertEquals(OptionalLong.empty(), Quantities.parseWhole("50X"));
    assertEquals(OptionalLong.empty(), Quantities.parseWhole(""));
    assertEquals(OptionalLong.empty(), Quantities.parseWhole("9Ei"));
  }
}
