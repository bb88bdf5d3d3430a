package io.criresmgr.proxy.nri;

import static io.criresmgr.proxy.HttpPages.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.nri.FakeNriRuntime;
import io.criresmgr.nri.NriPluginOptions;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.daemon.Daemon;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In NRI mode, {@code /healthz} (readiness) names the part {@code nri} while the plugin is not
 * registered with the runtime (for how long, since what, the last error) and says {@code ok} once
 * it is; {@code /livez} (liveness) stays {@code ok} throughout, since the plugin reconnects by
 * itself and a restart would not bring the runtime back (docs/nri.md, "A hung daemon").
 */
class NriHealthIT {
  @TempDir Path dir;

  private DaemonOptions nriOptions(Path socket) throws Exception {
    Path host = dir.resolve("host");
    Files.createDirectories(host.resolve("sys/devices/system/cpu"));
    Files.writeString(host.resolve("sys/devices/system/cpu/online"), "0-3\n");
    return TestDaemons.options(dir, dir.resolve("no-runtime.sock"), true, host).toBuilder()
        .relayDir(dir.resolve("state"))
        .pidFile(dir.resolve("state.pid"))
        .nri(Optional.of(NriPluginOptions.of("cri-resmgr", "90").withSocket(socket)))
        .build();
  }

  /** Polls {@code /healthz} until its body matches (the connection retries on its own thread). */
  private static HttpResponse<String> awaitHealth(int port, Predicate<String> body)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    HttpResponse<String> reply = get(port, "/healthz");
    while (!body.test(reply.body()) && System.nanoTime() < deadline) {
      Thread.sleep(20); // polling interval
      reply = get(port, "/healthz");
    }
    assertTrue(body.test(reply.body()), reply.body());
    return reply;
  }

  private static void assertLive(int port) throws Exception {
    HttpResponse<String> live = get(port, "/livez");
    assertEquals("ok\n", live.body());
    assertEquals(200, live.statusCode());
  }

  @Test
  void notRegisteredIsAReadinessProblemUntilTheRuntimeIsThere() throws Exception {
    Path socket = dir.resolve("nri.sock");
    try (Daemon daemon = Daemon.start(nriOptions(socket), new ConfigStore(TestDaemons.config()))) {
      int port = daemon.metricsPort();
      String prefix = "nri: not registered with the runtime on " + socket + " for ";
      HttpResponse<String> missing = awaitHealth(port, b -> b.contains("last error"));
      assertEquals(503, missing.statusCode());
      assertTrue(missing.body().startsWith(prefix), missing.body());
      assertTrue(missing.body().contains(" s, since the start; last error: "), missing.body());
      assertTrue(missing.body().contains(socket.toString()), missing.body());
      assertLive(port);

      try (FakeNriRuntime nri = FakeNriRuntime.listen(socket)) {
        nri.accept(); // the plugin's next try, after its backoff
        assertEquals("cri-resmgr", nri.registration().getPluginName());
        nri.configure("");
        HttpResponse<String> registered = awaitHealth(port, "ok\n"::equals);
        assertEquals(200, registered.statusCode());
        assertLive(port);

        nri.disconnect();
        HttpResponse<String> dropped =
            awaitHealth(port, b -> b.contains("since the runtime closed the connection"));
        assertEquals(503, dropped.statusCode());
        assertTrue(dropped.body().startsWith(prefix), dropped.body());
        assertLive(port);
      }
    }
  }
}
