package io.criresmgr.webhook.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.criresmgr.webhook.admission.AdmissionReviewer;
import io.criresmgr.webhook.admission.NotAnAdmissionReviewException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the webhook's requests: {@code POST /mutate} and {@code POST /} (the path of cri-resmgr's
 * manifests) take an AdmissionReview as {@code application/json}; {@code GET /healthz} answers
 * {@code ok} for probes. Anything else gets a 4xx status with a one-line reason.
 */
final class WebhookHandler implements HttpHandler {
  /** Large enough for a review of the biggest pod the API server stores, old and new object. */
  static final int MAX_BODY = 16 << 20;

  private static final Logger LOG = LoggerFactory.getLogger(WebhookHandler.class);
  private static final Set<String> REVIEW_PATHS = Set.of("/", "/mutate");

  private final AdmissionReviewer reviewer;

  WebhookHandler(AdmissionReviewer reviewer) {
    this.reviewer = Objects.requireNonNull(reviewer, "reviewer");
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      Reply reply = reply(exchange);
      if (reply.status() != 200) {
        LOG.warn(
            "{} {} from {}: {} {}",
            exchange.getRequestMethod(),
            exchange.getRequestURI().getPath(),
            exchange.getRemoteAddress(),
            reply.status(),
            new String(reply.body(), StandardCharsets.UTF_8).strip());
      }
      if (reply.status() != 200) {
        closeAfter(exchange);
      }
      send(exchange, reply);
    } finally {
      exchange.close();
    }
  }

  /**
   * An error reply may come before the request's body was read (a wrong method or content type):
   * read what is left, and ask the client not to reuse the connection, so that a body still on its
   * way cannot be taken for the next request. Errors are rare (the API server sends reviews), so
   * the new connection they cost does not matter.
   */
  private static void closeAfter(HttpExchange exchange) throws IOException {
    exchange.getRequestBody().readNBytes(MAX_BODY);
    exchange.getResponseHeaders().set("Connection", "close");
  }

  private Reply reply(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String method = exchange.getRequestMethod();
    if (path.equals("/healthz")) {
      return method.equals("GET") || method.equals("HEAD")
          ? Reply.text(200, "ok")
          : Reply.text(405, "method " + method + " not allowed, use GET");
    }
    if (!REVIEW_PATHS.contains(path)) {
      return Reply.text(404, "no such path " + path + "; reviews go to /mutate");
    }
    if (!method.equals("POST")) {
      return Reply.text(405, "method " + method + " not allowed, use POST");
    }
    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
    if (!isJson(contentType)) {
      return Reply.text(
          415, "Content-Type " + contentType + " not supported, use application/json");
    }
    return review(exchange);
  }

  private Reply review(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY + 1);
    if (body.length > MAX_BODY) {
      return Reply.text(413, "the body is larger than " + MAX_BODY + " bytes");
    }
    try {
      return Reply.json(reviewer.review(body));
    } catch (NotAnAdmissionReviewException e) {
      return Reply.text(400, "not an AdmissionReview: " + e.getMessage());
    }
  }

  /** True for {@code application/json}, with or without parameters such as a charset. */
  static boolean isJson(@Nullable String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String mediaType = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return mediaType.strip().toLowerCase(Locale.ROOT).equals("application/json");
  }

  private static void send(HttpExchange exchange, Reply reply) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", reply.contentType());
    byte[] body = reply.body();
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(reply.status(), head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
