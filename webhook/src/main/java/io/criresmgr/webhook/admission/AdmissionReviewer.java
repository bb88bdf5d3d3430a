package io.criresmgr.webhook.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers AdmissionReview requests: every request is allowed; a CREATE or UPDATE of a pod gets the
 * {@link PodPatch} (if any) as a base64 JSONPatch. The webhook never blocks a pod: when the pod
 * cannot be read or the patch cannot be built the pod is allowed unchanged and the error logged.
 */
public final class AdmissionReviewer {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionReviewer.class);
  // Big decimals keep a numeric quantity such as 0.1 exact when copied into the annotation.
  private static final JsonMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  /**
   * The AdmissionReview response (JSON) to the AdmissionReview request {@code body}.
   *
   * @throws NotAnAdmissionReviewException if {@code body} is not an AdmissionReview v1 request
   */
  public byte[] review(byte[] body) throws NotAnAdmissionReviewException {
    AdmissionRequest request = AdmissionRequest.of(parse(body));
    return response(request.uid(), patchFor(request));
  }

  private static JsonNode parse(byte[] body) throws NotAnAdmissionReviewException {
    try {
      return JSON.readTree(body);
    } catch (IOException | NumberFormatException e) {
      // Jackson reports a number it cannot hold (e.g. 9e99999999999999999999) unchecked.
      throw new NotAnAdmissionReviewException("the body is not JSON: " + e.getMessage());
    }
  }

  private static List<PatchOp> patchFor(AdmissionRequest request) {
    JsonNode pod = request.object();
    if (pod == null || !request.isPodWrite()) {
      LOG.debug(
          "{} {} {}: not a pod write, allowed",
          request.operation(),
          request.resource(),
          request.where());
      return List.of();
    }
    try {
      List<PatchOp> patch = PodPatch.forPod(pod);
      LOG.debug("{} pod {}: {}", request.operation(), request.where(), patch);
      return patch;
    } catch (RuntimeException e) {
      // Whatever went wrong, the pod must not fail because of the webhook: admit it unannotated.
      LOG.error(
          "{} pod {} (uid {}): not annotated, admitted unchanged: {}",
          request.operation(),
          request.where(),
          request.uid(),
          e.getMessage());
      return List.of();
    }
  }

  private static byte[] response(String uid, List<PatchOp> patch) {
    ObjectNode review = JSON.createObjectNode();
    review.put("apiVersion", AdmissionRequest.API_VERSION).put("kind", AdmissionRequest.KIND);
    ObjectNode response = review.putObject("response").put("uid", uid).put("allowed", true);
    if (!patch.isEmpty()) {
      response.put("patchType", "JSONPatch");
      response.put("patch", Base64.getEncoder().encodeToString(write(toJson(patch))));
    }
    return write(review);
  }

  private static ArrayNode toJson(List<PatchOp> patch) {
    ArrayNode ops = JSON.createArrayNode();
    for (PatchOp op : patch) {
      ops.addObject().put("op", op.op()).put("path", op.path()).set("value", op.value());
    }
    return ops;
  }

  private static byte[] write(JsonNode node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e); // a tree of plain values always serializes
    }
  }
}
