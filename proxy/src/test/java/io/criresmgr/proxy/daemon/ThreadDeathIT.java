package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.relay.UnixFiles;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread of the running daemon that dies of an uncaught exception stops the daemon with status 1,
 * so the service manager restarts it; it never leaves a half-alive process.
 */
class ThreadDeathIT {
  @TempDir Path dir;

  @Test
  void anUncaughtExceptionStopsTheDaemonWithStatus1() throws Exception {
    try (SimRuntimeServer sim =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
            .start()) {
      Path relay = dir.resolve("relay/cri-resmgr.sock");
      CompletableFuture<Integer> status =
          CompletableFuture.supplyAsync(
              () ->
                  Daemon.run(
                      TestDaemons.options(dir, sim.socket(), true),
                      new ConfigStore(TestDaemons.config())));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!UnixFiles.isServed(relay)) {
        assertTrue(System.nanoTime() < deadline, "the daemon did not serve");
        assertFalse(status.isDone(), "the daemon stopped: " + status.getNow(null));
        Thread.sleep(10); // polling interval
      }

      Thread dying =
          new Thread(
              () -> {
                throw new IllegalStateException("boom");
              },
              "some-background-part");
      dying.start();

      assertEquals(1, status.get(20, TimeUnit.SECONDS));
      assertFalse(Files.exists(relay), "the daemon closed its socket");
    }
  }
}
