package io.criresmgr.webhook.server;

import static io.criresmgr.webhook.admission.Pods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.webhook.admission.AdmissionReviewer;
import io.criresmgr.webhook.admission.PodPatch;
import io.criresmgr.webhook.admission.Pods;
import io.criresmgr.webhook.tls.ServerCredentials;
import io.criresmgr.webhook.tls.TestCertificates;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Slow, silent and large TLS clients against the real server, and pods near the size limit. */
class WebhookLimitsIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(3);
  @TempDir static Path dir;
  private static WebhookServer server;
  private static SSLContext trusting;
  private static HttpClient client;

  @BeforeAll
  static void start() throws Exception {
    TestCertificates certificates = TestCertificates.generate(dir, "RSA");
    server =
        WebhookServer.start(
            new InetSocketAddress(0),
            ServerCredentials.load(certificates.certFile(), certificates.keyFile()).sslContext(),
            new AdmissionReviewer(),
            WebhookServer.LIMITS.withRequestTimeout(TIMEOUT));
    trusting = certificates.trustingClient();
    client =
        HttpClient.newBuilder().sslContext(trusting).connectTimeout(Duration.ofSeconds(5)).build();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aSlowClientDoesNotStopAnotherBeingServedAndIsClosedAtItsDeadline() throws Exception {
    try (SSLSocket slow = tlsSocket()) {
      send(slow, "POST /mutate HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"kind\"");
      long sent = System.nanoTime();
      HttpResponse<String> reply = post(Pods.review("r-1", "CREATE", json(Pods.POD)));
      assertEquals(200, reply.statusCode());
      assertTrue(System.nanoTime() - sent < TIMEOUT.toNanos(), "served while the slow one waits");
      assertEquals("", readUntilClosed(slow, TIMEOUT.plusSeconds(2)));
    }
  }

  @Test
  void aClientThatNeverShakesHandsIsClosedAtTheDeadline() throws Exception {
    try (Socket silent = new Socket("localhost", server.port())) {
      assertEquals("", readUntilClosed(silent, TIMEOUT.plusSeconds(2)));
    }
  }

  @Test
  void aBodyOverTheLimitGets413BeforeItIsSent() throws Exception {
    try (SSLSocket big = tlsSocket()) {
      send(
          big,
          "POST /mutate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
              + (WebhookServer.MAX_BODY + 1)
              + "\r\n\r\n");
      String reply = readUntilClosed(big, Duration.ofSeconds(5));
      assertTrue(reply.startsWith("HTTP/1.1 413 "), reply);
      assertTrue(reply.endsWith("the body is larger than 16777216 bytes\n"), reply);
    }
  }

  @Test
  void aPodWhoseAnnotationsWouldPassTheLimitIsAdmittedUnchanged() throws Exception {
    ObjectNode pod = (ObjectNode) json(Pods.POD);
    String filler = "x".repeat(PodPatch.ANNOTATIONS_LIMIT - 100);
    ((ObjectNode) pod.get("metadata")).putObject("annotations").put("filler", filler);
    HttpResponse<String> reply = post(Pods.review("big-1", "CREATE", pod));
    assertEquals(200, reply.statusCode());
    JsonNode response = json(reply.body()).get("response");
    assertEquals("big-1", response.get("uid").asText());
    assertTrue(response.get("allowed").asBoolean());
    assertFalse(response.has("patch"), response.toString());
  }

  private SSLSocket tlsSocket() throws IOException {
    SSLSocket socket =
        (SSLSocket) trusting.getSocketFactory().createSocket("localhost", server.port());
    socket.startHandshake();
    return socket;
  }

  private static void send(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
  }

  /** What the server sent until it closed; fails if it is still open after {@code limit}. */
  private static String readUntilClosed(Socket socket, Duration limit) throws IOException {
    socket.setSoTimeout((int) limit.toMillis());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    try {
      for (int b; (b = in.read()) >= 0; ) {
        out.write(b);
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("still open after " + limit + ": " + out, e);
    } catch (IOException e) {
      // A reset or a TLS close without close_notify: closed all the same.
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> post(String review) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/mutate"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(review, StandardCharsets.UTF_8))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
