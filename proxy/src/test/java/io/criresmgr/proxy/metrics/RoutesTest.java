package io.criresmgr.proxy.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.http.Request;
import io.criresmgr.http.Response;
import java.net.InetAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who may read which page, and what a failing page answers. */
class RoutesTest {
  private static final Routes ROUTES =
      new Routes(
          Map.of(
              "/metrics", new Route("text/plain", () -> "m 1\n", false),
              "/introspect", new Route("application/json", () -> "{}", true),
              "/off", new Route("text/plain", () -> null, false),
              "/broken",
                  new Route(
                      "text/plain",
                      () -> {
                        throw new IllegalStateException("the pipeline is stopped");
                      },
                      false)));

  private static Response get(String path, String peer) throws Exception {
    return ROUTES.handle(new Request("GET", path, null, new byte[0], InetAddress.getByName(peer)));
  }

  @Test
  void introspectionIsForLoopbackClientsOnly() throws Exception {
    assertEquals("{}", get("/introspect", "127.0.0.1").text());
    assertEquals(200, get("/introspect", "::1").status());
    Response remote = get("/introspect", "10.244.0.7");
    assertEquals(403, remote.status());
    assertEquals(
        "/introspect is served to clients on this host only (set"
            + " instrumentation.RemoteIntrospection: true to allow others)\n",
        remote.text());
    assertEquals(
        403, ROUTES.handle(new Request("GET", "/introspect", null, new byte[0], null)).status());
  }

  @Test
  void metricsAreForEveryone() throws Exception {
    Response remote = get("/metrics", "10.244.0.7");
    assertEquals(200, remote.status());
    assertEquals("m 1\n", remote.text());
    assertEquals("text/plain", remote.contentType());
  }

  @Test
  void missingAndFailingPages() throws Exception {
    assertEquals(404, get("/off", "127.0.0.1").status());
    Response broken = get("/broken", "127.0.0.1");
    assertEquals(503, broken.status());
    assertEquals("the pipeline is stopped\n", broken.text());
    Response unknown = get("/healthz", "127.0.0.1");
    assertEquals(404, unknown.status());
    assertEquals(
        "no such page /healthz; try /broken, /introspect, /metrics, /off\n", unknown.text());
  }
}
