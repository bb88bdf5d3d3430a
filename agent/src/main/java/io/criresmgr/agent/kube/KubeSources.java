package io.criresmgr.agent.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.util.Watch;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The objects the agent watches, as {@link ListWatch}es over client-java's CoreV1Api. */
public final class KubeSources {
  /** Server-side watch timeout; the loop re-lists after it, which also heals missed events. */
  static final int WATCH_TIMEOUT_SECONDS = 300;

  private static final Type CONFIG_MAP_EVENT =
      new TypeToken<Watch.Response<V1ConfigMap>>() {}.getType();
  private static final Type NODE_EVENT = new TypeToken<Watch.Response<V1Node>>() {}.getType();

  private static final Type OBJECT_EVENT = new TypeToken<Watch.Response<JsonObject>>() {}.getType();

  private KubeSources() {}

  /** All ConfigMaps of {@code namespace}. */
  public static ListWatch<V1ConfigMap> configMaps(ApiClient client, String namespace) {
    return configMaps(client, namespace, CallTimeouts.DEFAULT);
  }

  /** All ConfigMaps of {@code namespace}, with {@code timeouts}. */
  static ListWatch<V1ConfigMap> configMaps(
      ApiClient client, String namespace, CallTimeouts timeouts) {
    CoreV1Api core = new CoreV1Api(client);
    return new ListWatch<>() {
      @Override
      public Listing<V1ConfigMap> list() throws ApiException {
        V1ConfigMapList list =
            client
                .<V1ConfigMapList>execute(
                    timeouts.forCall(core.listNamespacedConfigMap(namespace).buildCall(null)),
                    V1ConfigMapList.class)
                .getData();
        return new Listing<>(list.getItems(), version(list.getMetadata()));
      }

      @Override
      public Watch<V1ConfigMap> watch(String resourceVersion) throws ApiException {
        return Watch.createWatch(
            client,
            timeouts.forWatch(
                core.listNamespacedConfigMap(namespace)
                    .resourceVersion(resourceVersion)
                    .allowWatchBookmarks(true)
                    .timeoutSeconds(WATCH_TIMEOUT_SECONDS)
                    .watch(true)
                    .buildCall(null)),
            CONFIG_MAP_EVENT);
      }
    };
  }

  /** The Node called {@code nodeName} (a list of one, or none while it does not exist). */
  public static ListWatch<V1Node> node(ApiClient client, String nodeName) {
    return node(client, nodeName, CallTimeouts.DEFAULT);
  }

  /** The Node called {@code nodeName}, with {@code timeouts}. */
  static ListWatch<V1Node> node(ApiClient client, String nodeName, CallTimeouts timeouts) {
    CoreV1Api core = new CoreV1Api(client);
    String selector = "metadata.name=" + nodeName;
    return new ListWatch<>() {
      @Override
      public Listing<V1Node> list() throws ApiException {
        V1NodeList list =
            client
                .<V1NodeList>execute(
                    timeouts.forCall(core.listNode().fieldSelector(selector).buildCall(null)),
                    V1NodeList.class)
                .getData();
        return new Listing<>(list.getItems(), version(list.getMetadata()));
      }

      @Override
      public Watch<V1Node> watch(String resourceVersion) throws ApiException {
        return Watch.createWatch(
            client,
            timeouts.forWatch(
                core.listNode()
                    .fieldSelector(selector)
                    .resourceVersion(resourceVersion)
                    .allowWatchBookmarks(true)
                    .timeoutSeconds(WATCH_TIMEOUT_SECONDS)
                    .watch(true)
                    .buildCall(null)),
            NODE_EVENT);
      }
    };
  }

  /** All {@code Adjustment} custom objects of {@code namespace}, as JSON. */
  public static ListWatch<JsonObject> adjustments(ApiClient client, String namespace) {
    return adjustments(client, namespace, CallTimeouts.DEFAULT);
  }

  /** All {@code Adjustment} custom objects of {@code namespace}, with {@code timeouts}. */
  static ListWatch<JsonObject> adjustments(
      ApiClient client, String namespace, CallTimeouts timeouts) {
    CustomObjectsApi custom = new CustomObjectsApi(client);
    return new ListWatch<>() {
      @Override
      public Listing<JsonObject> list() throws ApiException {
        JsonObject list =
            client
                .<JsonObject>execute(
                    timeouts.forCall(
                        custom
                            .listNamespacedCustomObject(
                                AdjustmentApi.GROUP,
                                AdjustmentApi.VERSION,
                                namespace,
                                AdjustmentApi.PLURAL)
                            .buildCall(null)),
                    JsonObject.class)
                .getData();
        return new Listing<>(items(list), listVersion(list));
      }

      @Override
      public Watch<JsonObject> watch(String resourceVersion) throws ApiException {
        return Watch.createWatch(
            client,
            timeouts.forWatch(
                custom
                    .listNamespacedCustomObject(
                        AdjustmentApi.GROUP, AdjustmentApi.VERSION, namespace, AdjustmentApi.PLURAL)
                    .resourceVersion(resourceVersion)
                    .allowWatchBookmarks(true)
                    .timeoutSeconds(WATCH_TIMEOUT_SECONDS)
                    .watch(true)
                    .buildCall(null)),
            OBJECT_EVENT);
      }
    };
  }

  private static List<JsonObject> items(JsonObject list) {
    List<JsonObject> items = new ArrayList<>();
    if (list.has("items") && list.get("items").isJsonArray()) {
      list.getAsJsonArray("items").forEach(i -> addObject(items, i));
    }
    return items;
  }

  private static void addObject(List<JsonObject> items, JsonElement item) {
    if (item.isJsonObject()) {
      items.add(item.getAsJsonObject());
    }
  }

  private static String listVersion(JsonObject list) {
    JsonObject meta = list.has("metadata") ? list.getAsJsonObject("metadata") : new JsonObject();
    return meta.has("resourceVersion") ? meta.get("resourceVersion").getAsString() : "";
  }

  private static String version(@Nullable V1ListMeta meta) {
    String version = meta == null ? null : meta.getResourceVersion();
    return version == null ? "" : version;
  }
}
