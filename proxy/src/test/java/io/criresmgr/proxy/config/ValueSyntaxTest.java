package io.criresmgr.proxy.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValueSyntaxTest {
  @ParameterizedTest
  @ValueSource(strings = {"", ":8891", "127.0.0.1:8891", "[::1]:80", "metrics.local:0", "h:65535"})
  void acceptsHostPort(String endpoint) {
    assertDoesNotThrow(() -> HttpEndpoint.check(endpoint));
  }

  @ParameterizedTest
  @ValueSource(strings = {"8891", "localhost", ":", ":65536", "a b:1", "http://x:1", ":port"})
  void rejectsOtherEndpoints(String endpoint) {
    assertThrows(IllegalArgumentException.class, () -> HttpEndpoint.check(endpoint));
  }

  @Test
  void splitsHostAndPort() {
    assertEquals("", HttpEndpoint.host(":8891"));
    assertEquals("::1", HttpEndpoint.host("[::1]:80"));
    assertEquals(80, HttpEndpoint.port("[::1]:80"));
  }

  @Test
  void samplingWordsAndRatios() {
    assertEquals(0, Sampling.ratio("disabled"));
    assertEquals(0.1, Sampling.ratio("Production"));
    assertEquals(1, Sampling.ratio("testing"));
    assertEquals(0.25, Sampling.ratio("0.25"));
    assertThrows(IllegalArgumentException.class, () -> Sampling.ratio("1.5"));
    assertThrows(IllegalArgumentException.class, () -> Sampling.ratio("NaN"));
    assertThrows(IllegalArgumentException.class, () -> Sampling.ratio("often"));
  }
}
