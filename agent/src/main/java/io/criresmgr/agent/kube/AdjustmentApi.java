package io.criresmgr.agent.kube;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import java.nio.charset.StandardCharsets;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;

/** The {@code Adjustment} custom resource's coordinates, and the patch of its status. */
public final class AdjustmentApi {
  /** The resource's API group. */
  public static final String GROUP = "criresmgr.intel.com";

  /** The resource's version. */
  public static final String VERSION = "v1alpha1";

  /** The resource's plural name, as in its URLs. */
  public static final String PLURAL = "adjustments";

  private static final MediaType MERGE_PATCH = MediaType.get(V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH);

  private AdjustmentApi() {}

  /**
   * Applies {@code mergePatch} (JSON, RFC 7386: {@code null} removes a field) to the status of the
   * adjustment {@code name} in {@code namespace}; returns the object as patched.
   */
  public static JsonObject patchStatus(
      ApiClient client, String namespace, String name, String mergePatch) throws ApiException {
    return patchStatus(client, namespace, name, mergePatch, CallTimeouts.DEFAULT);
  }

  /** As {@link #patchStatus(ApiClient, String, String, String)}, with {@code timeouts}. */
  static JsonObject patchStatus(
      ApiClient client, String namespace, String name, String mergePatch, CallTimeouts timeouts)
      throws ApiException {
    CustomObjectsApi api = new CustomObjectsApi(client);
    Call built =
        api.patchNamespacedCustomObjectStatus(
                GROUP, VERSION, namespace, PLURAL, name, new V1Patch(mergePatch))
            .buildCall(null);
    // Our own call rather than PatchUtils', which would drop the call's timeout.
    Request request =
        built
            .request()
            .newBuilder()
            .patch(RequestBody.create(mergePatch.getBytes(StandardCharsets.UTF_8), MERGE_PATCH))
            .build();
    Call call = timeouts.forCall(client.getHttpClient().newCall(request));
    return client.<JsonObject>execute(call, JsonObject.class).getData();
  }
}
