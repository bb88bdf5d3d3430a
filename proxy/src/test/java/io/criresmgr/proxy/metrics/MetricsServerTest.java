package io.criresmgr.proxy.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.config.HttpEndpoint;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class MetricsServerTest {
  @Test
  void parsesEndpoints() {
    InetSocketAddress any = MetricsServer.address(":8891");
    assertTrue(any.getAddress().isAnyLocalAddress());
    assertEquals(8891, any.getPort());
    InetSocketAddress loopback = MetricsServer.address("127.0.0.1:9000");
    assertEquals("127.0.0.1", loopback.getHostString());
    assertEquals(9000, loopback.getPort());
    assertEquals(0, MetricsServer.address("[::1]:0").getPort());
  }

  @Test
  void rejectsBadEndpoints() {
    assertEquals(
        "invalid HTTP endpoint \"8891\": " + HttpEndpoint.SYNTAX,
        assertThrows(IllegalArgumentException.class, () -> MetricsServer.address("8891"))
            .getMessage());
    assertEquals(
        "invalid HTTP endpoint \":http\": " + HttpEndpoint.SYNTAX,
        assertThrows(IllegalArgumentException.class, () -> MetricsServer.address(":http"))
            .getMessage());
  }
}
