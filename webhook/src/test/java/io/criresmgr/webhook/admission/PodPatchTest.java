package io.criresmgr.webhook.admission;

import static io.criresmgr.webhook.admission.Pods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodPatchTest {
  private static final String KEY_PATH =
      "/metadata/annotations/resources.cri-resource-manager.intel.com";
  private static final TextNode VALUE = TextNode.valueOf(Pods.POD_ANNOTATION);

  @Test
  void aPodWithoutAnnotationsGetsTheMapAndTheAnnotation() {
    assertEquals(
        List.of(
            new PatchOp("add", "/metadata/annotations", json("{}")),
            new PatchOp("add", KEY_PATH, VALUE)),
        PodPatch.forPod(json(Pods.POD)));
  }

  @Test
  void nullAnnotationsAreReplacedByTheMap() {
    ObjectNode pod = (ObjectNode) json(Pods.POD);
    ((ObjectNode) pod.get("metadata")).putNull("annotations");
    assertEquals(2, PodPatch.forPod(pod).size());
    assertEquals("/metadata/annotations", PodPatch.forPod(pod).get(0).path());
  }

  @Test
  void aPodWithoutMetadataGetsMetadataToo() {
    ObjectNode pod = (ObjectNode) json(Pods.POD);
    pod.remove("metadata");
    assertEquals(
        List.of("/metadata", "/metadata/annotations", KEY_PATH),
        PodPatch.forPod(pod).stream().map(PatchOp::path).toList());
  }

  @Test
  void otherAnnotationsAreKept() {
    JsonNode pod = withAnnotations("{\"team\":\"a\"}");
    assertEquals(List.of(new PatchOp("add", KEY_PATH, VALUE)), PodPatch.forPod(pod));
  }

  @Test
  void aStaleAnnotationIsReplaced() {
    JsonNode pod = withAnnotations("{\"resources.cri-resource-manager.intel.com\":\"{}\"}");
    assertEquals(List.of(new PatchOp("replace", KEY_PATH, VALUE)), PodPatch.forPod(pod));
  }

  @Test
  void aPodWithTheRightAnnotationNeedsNoPatch() {
    JsonNode patched =
        JsonPatchApplier.apply(json(Pods.POD), patchJson(PodPatch.forPod(json(Pods.POD))));
    assertEquals(VALUE, patched.at("/metadata/annotations/" + ResourceAnnotation.KEY));
    assertEquals(List.of(), PodPatch.forPod(patched));
  }

  @Test
  void malformedAnnotationsAreReported() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PodPatch.forPod(withAnnotations("[]")));
    assertEquals("metadata.annotations must be a JSON object, not ARRAY", e.getMessage());
  }

  @Test
  void annotationsUpToKubernetesLimitArePatched() {
    JsonNode pod = withFiller(0);
    assertEquals(List.of(new PatchOp("add", KEY_PATH, VALUE)), PodPatch.forPod(pod));
  }

  @Test
  void aPatchThatWouldPassKubernetesLimitIsRefusedWithTheSizes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PodPatch.forPod(withFiller(1)));
    assertEquals(
        "with resources.cri-resource-manager.intel.com the pod's annotations would take 262145"
            + " bytes, over Kubernetes' limit of 262144 (metadata.annotations)",
        e.getMessage());
  }

  /**
   * A pod whose annotation {@code filler} (keys and values counted in UTF-8 bytes, as Kubernetes
   * does; the {@code é} takes two) brings the total with the resources annotation to the limit plus
   * {@code over} bytes.
   */
  static JsonNode withFiller(int over) {
    int used = ResourceAnnotation.KEY.length() + Pods.POD_ANNOTATION.length() + "filler".length();
    String filler = "é" + "x".repeat(PodPatch.ANNOTATIONS_LIMIT - used - 2 + over);
    ObjectNode annotations = Pods.JSON.createObjectNode().put("filler", filler);
    ObjectNode pod = (ObjectNode) json(Pods.POD);
    ((ObjectNode) pod.get("metadata")).set("annotations", annotations);
    return pod;
  }

  @Test
  void pointerTokensAreEscaped() {
    assertEquals("intel.com~1resources", PatchOp.escape("intel.com/resources"));
    assertEquals("a~0b~1c", PatchOp.escape("a~b/c"));
  }

  @Test
  void patchOpsAreValidated() {
    assertThrows(IllegalArgumentException.class, () -> new PatchOp("remove", "/a", VALUE));
    assertThrows(IllegalArgumentException.class, () -> new PatchOp("add", "a", VALUE));
  }

  private static JsonNode withAnnotations(String annotations) {
    ObjectNode pod = (ObjectNode) json(Pods.POD);
    ((ObjectNode) pod.get("metadata")).set("annotations", json(annotations));
    return pod;
  }

  private static JsonNode patchJson(List<PatchOp> ops) {
    return Pods.JSON.valueToTree(ops);
  }
}
