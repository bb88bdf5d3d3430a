package io.criresmgr.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;

/**
 * The JSON patch that sets {@link ResourceAnnotation#KEY} on a pod: adds it (creating {@code
 * /metadata/annotations} when the pod has none), replaces a different value, and is empty when the
 * pod already carries the right value, so that updates are idempotent.
 */
public final class PodPatch {
  private static final String ANNOTATIONS = "/metadata/annotations";
  private static final String KEY_PATH = ANNOTATIONS + "/" + PatchOp.escape(ResourceAnnotation.KEY);

  private PodPatch() {}

  /**
   * The operations for {@code pod} (a core/v1 Pod as JSON); empty if nothing needs to change.
   *
   * @throws IllegalArgumentException naming the field of the pod that is malformed
   */
  public static List<PatchOp> forPod(JsonNode pod) {
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

  private static JsonNode emptyObject() {
    return JsonNodeFactory.instance.objectNode();
  }
}
