package io.criresmgr.proxy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The daemon's HTTP pages, as the tests read them: a GET on the loopback address. */
public final class HttpPages {
  private HttpPages() {}

  /** GET {@code http://127.0.0.1:port path}, waiting at most 5 s for the answer. */
  public static HttpResponse<String> get(int port, String path)
      throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
