package io.criresmgr.proxy.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.http.HttpLimits;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The daemon's HTTP server over real sockets, with a client that sends half a request. */
class MetricsServerIT {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
  private static final HttpLimits LIMITS = MetricsServer.LIMITS.withRequestTimeout(REQUEST_TIMEOUT);
  private static final Map<String, Route> ROUTES =
      Map.of("/metrics", new Route(MetricsServer.PROMETHEUS_TEXT, () -> "up 1\n", false));

  @Test
  void halfARequestNeitherDelaysMetricsNorStaysOpen() throws Exception {
    try (MetricsServer server = MetricsServer.start("127.0.0.1:0", LIMITS, ROUTES);
        Socket half = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      OutputStream out = half.getOutputStream();
      out.write("GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      long sent = System.nanoTime();
      HttpResponse<String> metrics = scrape(server.port());
      assertEquals(200, metrics.statusCode());
      assertEquals("up 1\n", metrics.body());
      assertTrue(System.nanoTime() - sent < REQUEST_TIMEOUT.toNanos(), "scraped while held");
      assertClosedWithin(half, REQUEST_TIMEOUT.plusSeconds(2));
      assertTrue(System.nanoTime() - sent >= REQUEST_TIMEOUT.toNanos() / 2, "not closed at once");
    }
  }

  @Test
  void otherMethodsGet405() throws Exception {
    try (MetricsServer server = MetricsServer.start("127.0.0.1:0", LIMITS, ROUTES)) {
      HttpResponse<String> post =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                      .POST(HttpRequest.BodyPublishers.ofString("x"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(405, post.statusCode());
      assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
    }
  }

  private static HttpResponse<String> scrape(int port) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(2))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static void assertClosedWithin(Socket socket, Duration limit) throws Exception {
    socket.setSoTimeout((int) limit.toMillis());
    InputStream in = socket.getInputStream();
    try {
      assertEquals(-1, in.read(), "the server sent nothing and closed");
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the half request's connection is still open after " + limit, e);
    }
  }
}
