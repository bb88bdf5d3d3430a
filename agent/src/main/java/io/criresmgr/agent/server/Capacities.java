package io.criresmgr.agent.server;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The rules of {@code UpdateNodeCapacity}, as in cri-resmgr's agent: only extended resources (a
 * name with a '.' and a '/', such as {@code example.com/foo}) and valid quantities; the native
 * resources ({@code cpu}, {@code memory}, {@code hugepages-*}) belong to the kubelet.
 */
public final class Capacities {
  private static final String ALLOWED =
      "only extended resources, named with a '.' and a '/' (e.g. example.com/foo), can be set";

  private Capacities() {}

  /** Why {@code name} cannot be set, or empty if it is an extended resource name. */
  public static Optional<String> nameError(String name) {
    if (name.equals("cpu") || name.equals("memory") || name.startsWith("hugepages-")) {
      return Optional.of(
          "resource \""
              + name
              + "\" is native (cpu, memory, hugepages-*) and set by the kubelet; "
              + ALLOWED);
    }
    if (name.indexOf('.') < 0 || name.indexOf('/') < 0) {
      return Optional.of("resource \"" + name + "\" is not an extended resource; " + ALLOWED);
    }
    return Optional.empty();
  }

  /** Why {@code quantity} of {@code name} is not a Kubernetes quantity, or empty if it is. */
  public static Optional<String> quantityError(String name, String quantity) {
    try {
      Quantity.fromString(quantity);
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(
          "capacity of \"" + name + "\": \"" + quantity + "\" is not a Kubernetes quantity");
    }
  }

  /** The first error among {@code capacities}, in name order; empty if all can be set. */
  public static Optional<String> error(Map<String, String> capacities) {
    for (Map.Entry<String, String> e : new TreeMap<>(capacities).entrySet()) {
      Optional<String> error =
          nameError(e.getKey()).or(() -> quantityError(e.getKey(), e.getValue()));
      if (error.isPresent()) {
        return error;
      }
    }
    return Optional.empty();
  }

  /** The merge patch of the Node's status that sets {@code capacities}. */
  public static String statusPatch(Map<String, String> capacities) {
    JsonObject capacity = new JsonObject();
    new TreeMap<>(capacities).forEach(capacity::addProperty);
    JsonObject status = new JsonObject();
    status.add("capacity", capacity);
    JsonObject patch = new JsonObject();
    patch.add("status", status);
    return new Gson().toJson(patch);
  }
}
