package io.criresmgr.agent.kube;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import okhttp3.Call;

/** The {@code Adjustment} custom resource's coordinates, and the patch of its status. */
public final class AdjustmentApi {
  /** The resource's API group. */
  public static final String GROUP = "criresmgr.intel.com";

  /** The resource's version. */
  public static final String VERSION = "v1alpha1";

  /** The resource's plural name, as in its URLs. */
  public static final String PLURAL = "adjustments";

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
    Call built =
        new CustomObjectsApi(client)
            .patchNamespacedCustomObjectStatus(
                GROUP, VERSION, namespace, PLURAL, name, new V1Patch(mergePatch))
            .buildCall(null);
    return PatchCall.send(
        client, built, mergePatch, PatchCall.MERGE_PATCH, timeouts, JsonObject.class);
  }
}
