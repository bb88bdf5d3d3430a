package io.criresmgr.agent.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.util.PatchUtils;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * This node's Node object in the API server: read as JSON, patched with a JSON patch or a JSON
 * merge patch (client-java picks the first content type of a PATCH unless told, hence {@link
 * PatchUtils}).
 */
public final class NodeApi {
  private final ApiClient client;
  private final CoreV1Api core;
  private final String nodeName;

  /** Access to the Node {@code nodeName} through {@code client}. */
  public NodeApi(ApiClient client, String nodeName) {
    this.client = Objects.requireNonNull(client, "client");
    this.core = new CoreV1Api(client);
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
  }

  /** The node's name. */
  public String nodeName() {
    return nodeName;
  }

  /** The Node as JSON text, as client-java serializes it ({@link JSON}). */
  public String nodeJson() throws ApiException {
    return JSON.serialize(core.readNode(nodeName).execute());
  }

  /** Applies the RFC 6902 patch {@code patch} (a JSON array) to the Node. */
  public void jsonPatch(String patch) throws ApiException {
    PatchUtils.patch(
        V1Node.class,
        () -> core.patchNode(nodeName, new V1Patch(patch)).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_PATCH,
        client);
  }

  /** Applies the RFC 7386 merge patch {@code patch} (a JSON object) to the Node. */
  public void mergePatch(String patch) throws ApiException {
    PatchUtils.patch(
        V1Node.class,
        () -> core.patchNode(nodeName, new V1Patch(patch)).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
  }

  /** Applies the RFC 7386 merge patch {@code patch} to the Node's status subresource. */
  public void mergePatchStatus(String patch) throws ApiException {
    PatchUtils.patch(
        V1Node.class,
        () -> core.patchNodeStatus(nodeName, new V1Patch(patch)).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
  }

  /**
   * One line on a failed call: the HTTP status and the API server's message (from its Status body),
   * or why there was no answer.
   */
  public static String describe(ApiException e) {
    if (e.getCode() == 0) {
      Throwable cause = e.getCause();
      return "no answer from the API server: " + (cause == null ? e.getMessage() : cause);
    }
    return "API server answered HTTP " + e.getCode() + ": " + message(e.getResponseBody());
  }

  private static String message(@Nullable String body) {
    if (body == null || body.isBlank()) {
      return "(no message)";
    }
    try {
      JsonElement status = JsonParser.parseString(body);
      if (status.isJsonObject() && status.getAsJsonObject().has("message")) {
        return status.getAsJsonObject().get("message").getAsString();
      }
    } catch (JsonParseException | IllegalStateException | UnsupportedOperationException e) {
      // not a Status object: the body itself says most
    }
    return body.strip();
  }
}
