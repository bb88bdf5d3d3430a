package io.criresmgr.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.webhook.tls.TestCertificates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line starts the HTTPS server with the Go-style flags of cri-resmgr's manifests. */
class MainIT {
  @TempDir Path dir;

  @Test
  void goStyleFlagsStartTheServer() throws Exception {
    TestCertificates certificates = TestCertificates.generate(dir, "RSA");
    HttpClient client = HttpClient.newBuilder().sslContext(certificates.trustingClient()).build();
    List<String> replies = new ArrayList<>();
    StringWriter err = new StringWriter();
    int status =
        Main.run(
            new String[] {
              "-cert-file=" + certificates.certFile(),
              "-key-file=" + certificates.keyFile(),
              "-port=0"
            },
            new PrintWriter(new StringWriter()),
            new PrintWriter(err),
            server -> replies.add(healthz(client, server.port())));
    assertEquals(0, status, err.toString());
    assertEquals(List.of("200 ok\n"), replies);
  }

  private static String healthz(HttpClient client, int port) {
    try {
      HttpResponse<String> reply =
          client.send(
              HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/healthz")).build(),
              HttpResponse.BodyHandlers.ofString());
      return reply.statusCode() + " " + reply.body();
    } catch (Exception e) {
      return e.toString();
    }
  }
}
