package io.criresmgr.agent.kube;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.util.Watch;
import java.lang.reflect.Type;
import org.jspecify.annotations.Nullable;

/** The objects the agent watches, as {@link ListWatch}es over client-java's CoreV1Api. */
public final class KubeSources {
  /** Server-side watch timeout; the loop re-lists after it, which also heals missed events. */
  static final int WATCH_TIMEOUT_SECONDS = 300;

  private static final Type CONFIG_MAP_EVENT =
      new TypeToken<Watch.Response<V1ConfigMap>>() {}.getType();
  private static final Type NODE_EVENT = new TypeToken<Watch.Response<V1Node>>() {}.getType();

  private KubeSources() {}

  /** All ConfigMaps of {@code namespace}. */
  public static ListWatch<V1ConfigMap> configMaps(ApiClient client, String namespace) {
    CoreV1Api core = new CoreV1Api(client);
    return new ListWatch<>() {
      @Override
      public Listing<V1ConfigMap> list() throws ApiException {
        V1ConfigMapList list = core.listNamespacedConfigMap(namespace).execute();
        return new Listing<>(list.getItems(), version(list.getMetadata()));
      }

      @Override
      public Watch<V1ConfigMap> watch(String resourceVersion) throws ApiException {
        return Watch.createWatch(
            client,
            core.listNamespacedConfigMap(namespace)
                .resourceVersion(resourceVersion)
                .allowWatchBookmarks(true)
                .timeoutSeconds(WATCH_TIMEOUT_SECONDS)
                .watch(true)
                .buildCall(null),
            CONFIG_MAP_EVENT);
      }
    };
  }

  /** The Node called {@code nodeName} (a list of one, or none while it does not exist). */
  public static ListWatch<V1Node> node(ApiClient client, String nodeName) {
    CoreV1Api core = new CoreV1Api(client);
    String selector = "metadata.name=" + nodeName;
    return new ListWatch<>() {
      @Override
      public Listing<V1Node> list() throws ApiException {
        V1NodeList list = core.listNode().fieldSelector(selector).execute();
        return new Listing<>(list.getItems(), version(list.getMetadata()));
      }

      @Override
      public Watch<V1Node> watch(String resourceVersion) throws ApiException {
        return Watch.createWatch(
            client,
            core.listNode()
                .fieldSelector(selector)
                .resourceVersion(resourceVersion)
                .allowWatchBookmarks(true)
                .timeoutSeconds(WATCH_TIMEOUT_SECONDS)
                .watch(true)
                .buildCall(null),
            NODE_EVENT);
      }
    };
  }

  private static String version(@Nullable V1ListMeta meta) {
    String version = meta == null ? null : meta.getResourceVersion();
    return version == null ? "" : version;
  }
}
