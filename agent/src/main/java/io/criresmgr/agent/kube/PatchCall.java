package io.criresmgr.agent.kube;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * A PATCH sent as the agent means it: client-java's {@code PatchUtils} would pick the first content
 * type a PATCH allows and build a call of its own, dropping the call's timeout.
 */
final class PatchCall {
  /** RFC 6902. */
  static final MediaType JSON_PATCH = MediaType.get(V1Patch.PATCH_FORMAT_JSON_PATCH);

  /** RFC 7386. */
  static final MediaType MERGE_PATCH = MediaType.get(V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH);

  private PatchCall() {}

  /**
   * Sends the PATCH of {@code built} (its URL and authentication) with {@code patch} as {@code
   * type}, under the call timeout of {@code timeouts}; the answer as {@code returnType}.
   */
  @SuppressWarnings(
      "TypeParameterUnusedInFormals") // as client-java's ApiClient.execute, typed by returnType
  static <T> T send(
      ApiClient client,
      Call built,
      String patch,
      MediaType type,
      CallTimeouts timeouts,
      Type returnType)
      throws ApiException {
    Request request =
        built
            .request()
            .newBuilder()
            .patch(RequestBody.create(patch.getBytes(StandardCharsets.UTF_8), type))
            .build();
    Call call = timeouts.forCall(client.getHttpClient().newCall(request));
    return client.<T>execute(call, returnType).getData();
  }
}
