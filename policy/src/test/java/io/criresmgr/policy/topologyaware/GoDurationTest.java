package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoDurationTest {
  @ParameterizedTest
  @CsvSource({
    "0, PT0S",
    "10s, PT10S",
    "1m30s, PT1M30S",
    "1.5h, PT1H30M",
    "500ms, PT0.5S",
    "2us, PT0.000002S",
    "2µs, PT0.000002S",
    "7ns, PT0.000000007S",
    ".5s, PT0.5S",
    "1h0m0s, PT1H",
    "-3s, PT-3S",
    "+3s, PT3S"
  })
  void parsesGoDurations(String text, Duration expected) {
    assertEquals(expected, GoDuration.parse(text));
  }

  @ParameterizedTest
  @CsvSource({"10", "s", "1d", "1m 30s", "''", "-", "3000000h"})
  void rejectsEverythingElse(String text) {
    assertEquals(
        "expected a duration such as 30s, 1m30s or 1h (units ns, us, ms, s, m, h)",
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text)).getMessage());
  }
}
