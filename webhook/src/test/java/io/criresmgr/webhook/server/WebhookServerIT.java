package io.criresmgr.webhook.server;

import static io.criresmgr.webhook.admission.Pods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.PodResourcesAnnotation;
import io.criresmgr.cache.Resources;
import io.criresmgr.webhook.admission.AdmissionReviewer;
import io.criresmgr.webhook.admission.JsonPatchApplier;
import io.criresmgr.webhook.admission.Pods;
import io.criresmgr.webhook.tls.ServerCredentials;
import io.criresmgr.webhook.tls.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real HTTPS server with a certificate made in the test, and a real TLS client. */
class WebhookServerIT {
  @TempDir static Path dir;
  private static WebhookServer server;
  private static HttpClient client;

  @BeforeAll
  static void start() throws Exception {
    TestCertificates certificates = TestCertificates.generate(dir, "RSA");
    server = startServer(certificates);
    client = client(certificates);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aCreatedPodGetsTheAnnotationTheDaemonReads() throws Exception {
    HttpResponse<String> reply = post("/mutate", Pods.review("c-1", "CREATE", json(Pods.POD)));
    assertEquals(200, reply.statusCode());
    assertEquals("application/json", reply.headers().firstValue("Content-Type").orElseThrow());
    JsonNode review = json(reply.body());
    assertEquals("admission.k8s.io/v1", review.get("apiVersion").asText());
    assertEquals("AdmissionReview", review.get("kind").asText());
    JsonNode response = review.get("response");
    assertEquals("c-1", response.get("uid").asText());
    assertTrue(response.get("allowed").asBoolean());
    assertEquals("JSONPatch", response.get("patchType").asText());
    JsonNode pod = JsonPatchApplier.apply(json(Pods.POD), patch(response));
    assertEquals(
        new PodResources(
            Map.of("setup", new Resources(100, 200, 64L << 20, 128L << 20)),
            Map.of(
                "app", new Resources(1500, 2000, 1L << 30, 2L << 30), "sidecar", Resources.NONE)),
        PodResourcesAnnotation.fromAnnotations(annotations(pod)));
  }

  @Test
  void anUpdateOfTheAnnotatedPodOnTheRootPathChangesNothing() throws Exception {
    JsonNode first = json(post("/", Pods.review("u-1", "CREATE", json(Pods.POD))).body());
    JsonNode pod = JsonPatchApplier.apply(json(Pods.POD), patch(first.get("response")));
    HttpResponse<String> reply = post("/", Pods.review("u-2", "UPDATE", pod));
    assertEquals(200, reply.statusCode());
    assertEquals(
        "{\"uid\":\"u-2\",\"allowed\":true}", json(reply.body()).get("response").toString());
  }

  @Test
  void aMalformedPodIsAllowedWithoutAPatch() throws Exception {
    JsonNode pod = json("{\"spec\":{\"containers\":[{\"resources\":{}}]}}");
    HttpResponse<String> reply = post("/mutate", Pods.review("m-1", "CREATE", pod));
    assertEquals(200, reply.statusCode());
    JsonNode response = json(reply.body()).get("response");
    assertTrue(response.get("allowed").asBoolean());
    assertFalse(response.has("patch"));
  }

  @Test
  void badRequestsGetA4xxWithTheReason() throws Exception {
    HttpResponse<String> notReview = post("/mutate", "{\"kind\":\"Pod\"}");
    assertEquals(400, notReview.statusCode());
    assertTrue(notReview.body().startsWith("not an AdmissionReview: expected a JSON object"));
    HttpResponse<String> text =
        send(request("/mutate").POST(body("{}")).header("Content-Type", "text/plain"));
    assertEquals(415, text.statusCode());
    // The unread body must not be taken for the next request on the connection.
    assertEquals(Optional.of("close"), text.headers().firstValue("Connection"));
    assertEquals(405, send(request("/mutate").GET()).statusCode());
    assertEquals(404, post("/validate", "{}").statusCode());
  }

  @Test
  void healthzAnswersOk() throws Exception {
    HttpResponse<String> reply = send(request("/healthz").GET());
    assertEquals(200, reply.statusCode());
    assertEquals("ok\n", reply.body());
  }

  @Test
  void aClientThatDoesNotTrustTheCertificateCannotConnect() {
    HttpClient untrusting = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    assertThrows(
        SSLHandshakeException.class,
        () ->
            untrusting.send(
                request("/healthz").GET().build(), HttpResponse.BodyHandlers.ofString()));
  }

  @Test
  void anEcCertificateServesToo() throws Exception {
    TestCertificates ec = TestCertificates.generate(dir, "EC");
    try (WebhookServer ecServer = startServer(ec)) {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("https://localhost:" + ecServer.port() + "/mutate"))
              .header("Content-Type", "application/json")
              .POST(body(Pods.review("ec", "CREATE", json(Pods.POD))))
              .build();
      HttpResponse<String> reply = client(ec).send(request, HttpResponse.BodyHandlers.ofString());
      assertEquals("JSONPatch", json(reply.body()).get("response").get("patchType").asText());
    }
  }

  private static WebhookServer startServer(TestCertificates certificates) throws Exception {
    return WebhookServer.start(
        new InetSocketAddress(0),
        ServerCredentials.load(certificates.certFile(), certificates.keyFile()).sslContext(),
        new AdmissionReviewer());
  }

  private static HttpClient client(TestCertificates certificates) throws Exception {
    return HttpClient.newBuilder()
        .sslContext(certificates.trustingClient())
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  private static HttpResponse<String> post(String path, String review)
      throws IOException, InterruptedException {
    return send(request(path).header("Content-Type", "application/json").POST(body(review)));
  }

  private static HttpResponse<String> send(HttpRequest.Builder request)
      throws IOException, InterruptedException {
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + path))
        .timeout(Duration.ofSeconds(10));
  }

  private static HttpRequest.BodyPublisher body(String text) {
    return HttpRequest.BodyPublishers.ofString(text, StandardCharsets.UTF_8);
  }

  private static JsonNode patch(JsonNode response) {
    byte[] patch = Base64.getDecoder().decode(response.get("patch").asText());
    return json(new String(patch, StandardCharsets.UTF_8));
  }

  private static Map<String, String> annotations(JsonNode pod) {
    Map<String, String> annotations = new TreeMap<>();
    pod.get("metadata")
        .get("annotations")
        .properties()
        .forEach(e -> annotations.put(e.getKey(), e.getValue().asText()));
    return annotations;
  }
}
