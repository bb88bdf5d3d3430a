package io.criresmgr.agent.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Builds the agent's API client: from a kubeconfig file, or in-cluster (service account). */
public final class ApiClients {
  private ApiClients() {}

  /**
   * A client from {@code kubeconfig}, or the in-cluster configuration if empty; without a read
   * timeout, since watches stay open for minutes without data.
   */
  public static ApiClient create(Optional<Path> kubeconfig) throws IOException {
    return create(kubeconfig, System.getenv());
  }

  /** As {@link #create(Optional)}, with the environment that tells whether we run in a pod. */
  static ApiClient create(Optional<Path> kubeconfig, Map<String, String> env) throws IOException {
    if (kubeconfig.isPresent()) {
      try {
        return forWatching(Config.fromConfig(kubeconfig.get().toString()));
      } catch (IOException | RuntimeException e) {
        throw new IOException(
            "cannot use kubeconfig " + kubeconfig.get() + ": " + e.getMessage(), e);
      }
    }
    if (!env.containsKey(Config.ENV_SERVICE_HOST) || !env.containsKey(Config.ENV_SERVICE_PORT)) {
      throw new IOException(
          "no --kubeconfig given and not running in a pod ("
              + Config.ENV_SERVICE_HOST
              + " and "
              + Config.ENV_SERVICE_PORT
              + " are not set)");
    }
    return forWatching(ClientBuilder.cluster().build());
  }

  /** A client talking plain HTTP to {@code baseUrl} (tests, {@code kubectl proxy}). */
  public static ApiClient forUrl(String baseUrl) {
    return forWatching(new ClientBuilder().setBasePath(baseUrl).build());
  }

  private static ApiClient forWatching(ApiClient client) {
    client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(Duration.ZERO).build());
    return client;
  }
}
