package io.criresmgr.agent.adjust;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;

/** Applies a JSON merge patch to an adjustment's status subresource. */
@FunctionalInterface
public interface StatusPatcher {
  /** Patches the status of adjustment {@code name}; returns the object as patched. */
  JsonObject patch(String name, String mergePatch) throws ApiException;
}
