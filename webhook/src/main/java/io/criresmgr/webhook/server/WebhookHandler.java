package io.criresmgr.webhook.server;

import io.criresmgr.http.HttpHandler;
import io.criresmgr.http.Request;
import io.criresmgr.http.Response;
import io.criresmgr.webhook.admission.AdmissionReviewer;
import io.criresmgr.webhook.admission.NotAnAdmissionReviewException;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the webhook's requests: {@code POST /mutate} and {@code POST /} (the path of cri-resmgr's
 * manifests) take an AdmissionReview as {@code application/json}; {@code GET /healthz} answers
 * {@code ok} for probes. Anything else gets a 4xx status with a one-line reason (and the server
 * closes the connection after it).
 */
final class WebhookHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookHandler.class);
  private static final Set<String> REVIEW_PATHS = Set.of("/", "/mutate");

  private final AdmissionReviewer reviewer;

  WebhookHandler(AdmissionReviewer reviewer) {
    this.reviewer = Objects.requireNonNull(reviewer, "reviewer");
  }

  @Override
  public Set<String> methods() {
    return Set.of("GET", "HEAD", "POST");
  }

  @Override
  public Response handle(Request request) {
    Response reply = reply(request);
    if (reply.status() != 200) {
      LOG.warn(
          "{} {} from {}: {} {}",
          request.method(),
          request.path(),
          request.peer(),
          reply.status(),
          reply.text().strip());
    }
    return reply;
  }

  private Response reply(Request request) {
    String path = request.path();
    String method = request.method();
    if (path.equals("/healthz")) {
      return method.equals("GET") || method.equals("HEAD")
          ? Response.text(200, "ok")
          : Response.text(405, "method " + method + " not allowed, use GET");
    }
    if (!REVIEW_PATHS.contains(path)) {
      return Response.text(404, "no such path " + path + "; reviews go to /mutate");
    }
    if (!method.equals("POST")) {
      return Response.text(405, "method " + method + " not allowed, use POST");
    }
    if (!isJson(request.contentType())) {
      return Response.text(
          415, "Content-Type " + request.contentType() + " not supported, use application/json");
    }
    return review(request.body());
  }

  private Response review(byte[] body) {
    try {
      return Response.of(200, "application/json", reviewer.review(body));
    } catch (NotAnAdmissionReviewException e) {
      return Response.text(400, "not an AdmissionReview: " + e.getMessage());
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
}
