package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationTest {
  @ParameterizedTest
  @CsvSource({
    "0, 0, 0s",
    "15s, 15000000000, 15s",
    "1m30s, 90000000000, 1m30s",
    "500ms, 500000000, 500ms",
    "1.5h, 5400000000000, 1h30m0s",
    "1h2m3.5s, 3723500000000, 1h2m3.5s",
    "2us, 2000, 2µs",
    "1.5µs, 1500, 1.5µs",
    "7ns, 7, 7ns",
    "-2s, -2000000000, -2s",
    "60s, 60000000000, 1m0s",
  })
  void parsesAndFormatsLikeGo(String text, long nanos, String formatted) {
    Duration d = GoDuration.parse(text);
    assertEquals(Duration.ofNanos(nanos), d);
    assertEquals(formatted, GoDuration.format(d));
    assertEquals(d, GoDuration.parse(formatted));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "15", "s", "1x", "1m 30s", "1.2.3s", "disable", "9999999999h"})
  void rejectsOtherText(String text) {
    assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
  }
}
