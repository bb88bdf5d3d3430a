package io.criresmgr.agent.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Builds the agent's API client: from a kubeconfig file, or in-cluster (service account). */
public final class ApiClients {
  private ApiClients() {}

  /**
   * A client from {@code kubeconfig}, or the in-cluster configuration if empty; without a read
   * timeout, since watches stay open for minutes without data.
   */
  public static ApiClient create(Optional<Path> kubeconfig) throws IOException {
    ApiClient client =
        kubeconfig.isPresent()
            ? Config.fromConfig(kubeconfig.get().toString())
            : ClientBuilder.cluster().build();
    return forWatching(client);
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
