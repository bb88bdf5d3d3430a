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
import java.time.Duration;
import java.util.Objects;
import okhttp3.Call;
import okhttp3.MediaType;
import org.jspecify.annotations.Nullable;

/**
 * This node's Node object in the API server: read as JSON, patched with a JSON patch or a JSON
 * merge patch. Each call has a timeout of its own: the agent's client has none, for its watches.
 */
public final class NodeApi {
  /** How long one call may take. */
  public static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

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
    Call call = CallTimeouts.DEFAULT.forCall(core.readNode(nodeName).buildCall(null));
    return JSON.serialize(client.<V1Node>execute(call, V1Node.class).getData());
  }

  /** Applies the RFC 6902 patch {@code patch} (a JSON array) to the Node. */
  public void jsonPatch(String patch) throws ApiException {
    send(core.patchNode(nodeName, new V1Patch(patch)).buildCall(null), patch, PatchCall.JSON_PATCH);
  }

  /** Applies the RFC 7386 merge patch {@code patch} (a JSON object) to the Node. */
  public void mergePatch(String patch) throws ApiException {
    send(
        core.patchNode(nodeName, new V1Patch(patch)).buildCall(null), patch, PatchCall.MERGE_PATCH);
  }

  /** Applies the RFC 7386 merge patch {@code patch} to the Node's status subresource. */
  public void mergePatchStatus(String patch) throws ApiException {
    send(
        core.patchNodeStatus(nodeName, new V1Patch(patch)).buildCall(null),
        patch,
        PatchCall.MERGE_PATCH);
  }

  private void send(Call built, String patch, MediaType type) throws ApiException {
    PatchCall.send(client, built, patch, type, CallTimeouts.DEFAULT, V1Node.class);
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
    JsonElement status;
    try {
      status = JsonParser.parseString(body);
    } catch (JsonParseException e) {
      return body.strip(); // not JSON: the body itself says most
    }
    JsonElement message = status.isJsonObject() ? status.getAsJsonObject().get("message") : null;
    return message != null && message.isJsonPrimitive() ? message.getAsString() : body.strip();
  }
}
