package io.criresmgr.agent.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiClientsTest {
  @TempDir Path dir;

  @Test
  void outsideAPodWithoutKubeconfigTheErrorSaysWhy() {
    IOException e =
        assertThrows(IOException.class, () -> ApiClients.create(Optional.empty(), Map.of()));
    assertEquals(
        "no --kubeconfig given and not running in a pod (KUBERNETES_SERVICE_HOST and"
            + " KUBERNETES_SERVICE_PORT are not set)",
        e.getMessage());
  }

  @Test
  void aMissingKubeconfigNamesTheFile() {
    Path missing = dir.resolve("kubeconfig");
    IOException e =
        assertThrows(IOException.class, () -> ApiClients.create(Optional.of(missing), Map.of()));
    assertTrue(
        e.getMessage().startsWith("cannot use kubeconfig " + missing + ": "), e.getMessage());
  }

  @Test
  void aKubeconfigGivesItsServerAndNoReadTimeout() throws IOException {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: 'http://127.0.0.1:8001'}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        current-context: x
        users: [{name: u, user: {token: t}}]
        """);
    ApiClient client = ApiClients.create(Optional.of(file), Map.of());
    assertEquals("http://127.0.0.1:8001", client.getBasePath());
    assertEquals(0, client.getHttpClient().readTimeoutMillis());
  }
}
