package io.criresmgr.webhook.admission;

import static io.criresmgr.webhook.admission.Pods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AdmissionReviewerTest {
  private final AdmissionReviewer reviewer = new AdmissionReviewer();

  @Test
  void aPodCreationIsAllowedWithTheAnnotationPatch() throws Exception {
    JsonNode review = review(Pods.review("uid-1", "CREATE", json(Pods.POD)));
    assertEquals("admission.k8s.io/v1", review.get("apiVersion").asText());
    assertEquals("AdmissionReview", review.get("kind").asText());
    JsonNode response = review.get("response");
    assertEquals("uid-1", response.get("uid").asText());
    assertTrue(response.get("allowed").asBoolean());
    assertEquals("JSONPatch", response.get("patchType").asText());
    JsonNode patched = JsonPatchApplier.apply(json(Pods.POD), patchOf(response));
    assertEquals(
        Pods.POD_ANNOTATION,
        patched.get("metadata").get("annotations").get(ResourceAnnotation.KEY).asText());
  }

  @Test
  void anUpdateOfAnAnnotatedPodGetsNoPatch() throws Exception {
    JsonNode first = review(Pods.review("u", "CREATE", json(Pods.POD))).get("response");
    JsonNode annotated = JsonPatchApplier.apply(json(Pods.POD), patchOf(first));
    JsonNode response = review(Pods.review("u2", "UPDATE", annotated)).get("response");
    assertEquals("{\"uid\":\"u2\",\"allowed\":true}", response.toString());
  }

  @Test
  void aMalformedPodIsAllowedUnchanged() throws Exception {
    JsonNode pod = json("{\"metadata\":{},\"spec\":{\"containers\":\"oops\"}}");
    JsonNode response = review(Pods.review("u3", "CREATE", pod)).get("response");
    assertEquals("{\"uid\":\"u3\",\"allowed\":true}", response.toString());
  }

  @Test
  void otherResourcesSubresourcesAndOperationsAreAllowedUnchanged() throws Exception {
    ObjectNode deployment = (ObjectNode) json(Pods.review("d", "CREATE", json(Pods.POD)));
    ((ObjectNode) deployment.get("request").get("resource"))
        .put("group", "apps")
        .put("resource", "deployments");
    assertFalse(review(deployment.toString()).get("response").has("patch"));

    ObjectNode status = (ObjectNode) json(Pods.review("s", "UPDATE", json(Pods.POD)));
    ((ObjectNode) status.get("request")).put("subResource", "status");
    assertFalse(review(status.toString()).get("response").has("patch"));

    JsonNode delete = review(Pods.review("x", "DELETE", json("null")));
    assertEquals("{\"uid\":\"x\",\"allowed\":true}", delete.get("response").toString());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{                                             | the body is not JSON:",
        "{`a`:999999999999999999999999999999e99999999999999999999} | the body is not JSON:",
        "[]                                            | expected a JSON object with apiVersion admission.k8s.io/v1 and kind AdmissionReview",
        "{`apiVersion`:`admission.k8s.io/v1beta1`,`kind`:`AdmissionReview`} | expected a JSON object with apiVersion admission.k8s.io/v1 and kind AdmissionReview",
        "{`apiVersion`:`admission.k8s.io/v1`,`kind`:`AdmissionReview`}      | the AdmissionReview has no request object",
        "{`apiVersion`:`admission.k8s.io/v1`,`kind`:`AdmissionReview`,`request`:{}} | the AdmissionReview request has no uid",
      })
  void aBodyThatIsNotAnAdmissionReviewIsRefused(String body, String message) {
    NotAnAdmissionReviewException e =
        assertThrows(
            NotAnAdmissionReviewException.class,
            () -> reviewer.review(body.replace('`', '"').getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
  }

  private JsonNode review(String request) throws NotAnAdmissionReviewException {
    return json(
        new String(
            reviewer.review(request.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8));
  }

  private static JsonNode patchOf(JsonNode response) {
    return json(
        new String(
            Base64.getDecoder().decode(response.get("patch").asText()), StandardCharsets.UTF_8));
  }
}
