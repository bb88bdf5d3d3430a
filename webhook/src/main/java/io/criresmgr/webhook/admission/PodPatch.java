package io.criresmgr.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The JSON patch that sets {@link ResourceAnnotation#KEY} on a pod: adds it (creating {@code
 * /metadata/annotations} when the pod has none), replaces a different value, and is empty when the
 * pod already carries the right value, so that updates are idempotent. It never makes the pod's
 * annotations exceed Kubernetes' limit ({@link #ANNOTATIONS_LIMIT}): the API server would then
 * refuse the pod because of us.
 */
public final class PodPatch {
  private static final String ANNOTATIONS = "/metadata/annotations";
  private static final String KEY_PATH = ANNOTATIONS + "/" + PatchOp.escape(ResourceAnnotation.KEY);

  /**
   * The most bytes all annotation keys and values of an object may take together (apimachinery's
   * {@code TotalAnnotationSizeLimitB}, checked by {@code ValidateAnnotationsSize}).
   */
  public static final int ANNOTATIONS_LIMIT = 256 * 1024;

  private PodPatch() {}

  /**
   * The operations for {@code pod} (a core/v1 Pod as JSON); empty if nothing needs to change.
   *
   * @throws IllegalArgumentException naming the field of the pod that is malformed, or saying by
   *     how much the annotation would take the pod's annotations over {@link #ANNOTATIONS_LIMIT}
   */
  public static List<PatchOp> forPod(JsonNode pod) {
    List<PatchOp> patch = patch(pod);
    if (!patch.isEmpty()) {
      checkSize(pod.path("metadata").path("annotations"), patch.get(patch.size() - 1).value());
    }
    return patch;
  }

  private static List<PatchOp> patch(JsonNode pod) {
    TextNode value = TextNode.valueOf(ResourceAnnotation.valueOf(pod));
    JsonNode metadata = pod.get("metadata");
    if (Fields.isAbsent(metadata)) {
      return List.of(
          new PatchOp("add", "/metadata", emptyObject()),
          new PatchOp("add", ANNOTATIONS, emptyObject()),
          new PatchOp("add", KEY_PATH, value));
    }
    Fields.requireObject(metadata, "metadata");
    JsonNode annotations = metadata.get("annotations");
    if (Fields.isAbsent(annotations)) {
      return List.of(
          new PatchOp("add", ANNOTATIONS, emptyObject()), new PatchOp("add", KEY_PATH, value));
    }
    Fields.requireObject(annotations, "metadata.annotations");
    JsonNode current = annotations.get(ResourceAnnotation.KEY);
    if (current == null) {
      return List.of(new PatchOp("add", KEY_PATH, value));
    }
    return current.equals(value) ? List.of() : List.of(new PatchOp("replace", KEY_PATH, value));
  }

  /** Counts as {@code ValidateAnnotationsSize} does: UTF-8 bytes of every key and value. */
  private static void checkSize(JsonNode annotations, JsonNode value) {
    long total = bytes(ResourceAnnotation.KEY) + bytes(value.asText());
    for (Map.Entry<String, JsonNode> e : annotations.properties()) {
      if (!e.getKey().equals(ResourceAnnotation.KEY)) {
        total += bytes(e.getKey()) + bytes(e.getValue().asText());
      }
    }
    if (total > ANNOTATIONS_LIMIT) {
      throw new IllegalArgumentException(
          "with "
              + ResourceAnnotation.KEY
              + " the pod's annotations would take "
              + total
              + " bytes, over Kubernetes' limit of "
              + ANNOTATIONS_LIMIT
              + " (metadata.annotations)");
    }
  }

  private static long bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  private static JsonNode emptyObject() {
    return JsonNodeFactory.instance.objectNode();
  }
}
