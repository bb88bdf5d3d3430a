package io.criresmgr.webhook;

import static io.criresmgr.webhook.WebhookChart.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.webhook.admission.Pods;
import io.criresmgr.webhook.server.WebhookServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook runs on what the chart renders, as the kubelet would start it: the Deployment's
 * arguments, with the certificate Secret's keys as files at the volume's mount path. A client that
 * trusts only the MutatingWebhookConfiguration's caBundle and checks the certificate for the
 * Service's DNS name, as the API server does, gets the review answered at the configured path. Both
 * with the chart's generated certificate and with create-webhook-secret.sh's.
 */
class WebhookChartIT {
  @TempDir Path dir;

  @Test
  void theGeneratedCertificateIsServedAndTrustedByTheCaBundle() throws Exception {
    WebhookChart chart = WebhookChart.render(Map.of());
    Map<?, ?> data = (Map<?, ?>) at(chart.only("Secret"), "data");
    assertReviewAnswered(chart, data);
  }

  @Test
  void theScriptsSecretAndValuesWorkTogether() throws Exception {
    Path script =
        WebhookChart.DIR.resolve("../../kubernetes/webhook/create-webhook-secret.sh").normalize();
    Process p =
        new ProcessBuilder("bash", script.toString(), dir.resolve("certs").toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, output);
    WebhookChart chart = WebhookChart.render(Map.of(), dir.resolve("certs/values.yaml"));
    Map<String, Object> secret =
        new org.yaml.snakeyaml.Yaml().load(Files.readString(dir.resolve("certs/secret.yaml")));
    assertEquals(at(secret, "metadata", "name"), mountedSecret(chart));
    assertReviewAnswered(chart, (Map<?, ?>) secret.get("data"));
  }

  private void assertReviewAnswered(WebhookChart chart, Map<?, ?> secretData) throws Exception {
    Path mount = mount(secretData);
    List<String> args = new ArrayList<>();
    for (Object arg : (List<?>) chart.container().get("args")) {
      // The pod's path is the mount; a free port instead of the container's.
      String a = arg.toString().replace(mountPath(chart), mount.toString());
      args.add(a.startsWith("-port=") ? "-port=0" : a);
    }
    StringWriter err = new StringWriter();
    List<String> replies = new ArrayList<>();
    int status =
        Main.run(
            args.toArray(String[]::new),
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            server -> replies.add(post(chart, server)));
    assertEquals(0, status, err.toString());
    assertTrue(replies.get(0).startsWith("HTTP/1.1 200 "), replies.get(0));
    assertTrue(replies.get(0).contains("\"allowed\":true"), replies.get(0));
  }

  private Path mount(Map<?, ?> secretData) throws IOException {
    Path mount = Files.createDirectories(dir.resolve("mount"));
    for (Map.Entry<?, ?> e : secretData.entrySet()) {
      Files.write(
          mount.resolve(e.getKey().toString()),
          Base64.getDecoder().decode(e.getValue().toString()));
    }
    return mount;
  }

  /** POSTs a review to the configured path over TLS as the API server would; the reply's text. */
  private static String post(WebhookChart chart, WebhookServer server) {
    Map<?, ?> service = (Map<?, ?>) at(chart.webhook(), "clientConfig", "service");
    String host = service.get("name") + "." + service.get("namespace") + ".svc";
    byte[] body =
        Pods.review("c-1", "CREATE", Pods.json(Pods.POD)).getBytes(StandardCharsets.UTF_8);
    try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), server.port());
        SSLSocket tls =
            (SSLSocket)
                trusting(caBundle(chart))
                    .getSocketFactory()
                    .createSocket(plain, host, server.port(), true)) {
      SSLParameters parameters = tls.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      tls.setSSLParameters(parameters);
      OutputStream out = tls.getOutputStream();
      out.write(
          ("POST "
                  + service.get("path")
                  + " HTTP/1.1\r\nHost: "
                  + host
                  + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      InputStream in = tls.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (Exception e) {
      throw new AssertionError("review over TLS to " + host + " failed", e);
    }
  }

  private static byte[] caBundle(WebhookChart chart) {
    return Base64.getDecoder().decode(at(chart.webhook(), "clientConfig", "caBundle").toString());
  }

  private static SSLContext trusting(byte[] caPem) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    trust.setCertificateEntry(
        "ca",
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(caPem)));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    return context;
  }

  private static String mountPath(WebhookChart chart) {
    return at(chart.container(), "volumeMounts", 0, "mountPath").toString();
  }

  private static Object mountedSecret(WebhookChart chart) {
    return at(
        chart.only("Deployment"), "spec", "template", "spec", "volumes", 0, "secret", "secretName");
  }
}
