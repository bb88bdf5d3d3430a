package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.proxy.relay.RecordingBackend;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP endpoint is optional: a busy port neither stops the daemon nor stays unserved. */
class BusyHttpEndpointIT {
  @TempDir Path dir;

  @Test
  void aBusyPortIsRetriedWhileCriIsServed() throws Exception {
    ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    int port = squatter.getLocalPort();
    String endpoint = "127.0.0.1:" + port;
    RecordingBackend backend = new RecordingBackend(dir.resolve("runtime.sock")).start();
    try {
      ConfigStore store =
          new ConfigStore(TestDaemons.withInstrumentation(TestDaemons.config(), endpoint));
      Daemon daemon =
          Daemon.start(TestDaemons.options(dir, dir.resolve("runtime.sock"), false), store);
      try (daemon;
          RawClient client = new RawClient(dir.resolve("relay/cri-resmgr.sock"))) {
        assertEquals(-1, daemon.metricsPort());
        var stub = RuntimeServiceGrpc.newBlockingStub(client.channel());
        assertFalse(stub.version(VersionRequest.getDefaultInstance()).getRuntimeName().isEmpty());
        // A reload to another busy endpoint is refused; the retry of the first one goes on.
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
          String busy = "127.0.0.1:" + other.getLocalPort();
          ConfigException refused =
              assertThrows(
                  ConfigException.class,
                  () -> store.update(TestDaemons.withInstrumentation(store.current(), busy)));
          assertTrue(
              refused
                  .getMessage()
                  .contains("instrumentation.HTTPEndpoint: cannot listen on \"" + busy + "\": "),
              refused.getMessage());
        }
        squatter.close();
        assertEquals(Optional.of(200), pollMetrics(port, Duration.ofSeconds(40)));
        assertEquals(port, daemon.metricsPort());
      }
    } finally {
      squatter.close();
      backend.close();
    }
  }

  /** GETs /metrics every 100 ms until it answers or {@code limit} passes. */
  private static Optional<Integer> pollMetrics(int port, Duration limit) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
            .timeout(Duration.ofSeconds(2))
            .build();
    long end = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < end) {
      try {
        return Optional.of(http.send(get, HttpResponse.BodyHandlers.discarding()).statusCode());
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    return Optional.empty();
  }
}
