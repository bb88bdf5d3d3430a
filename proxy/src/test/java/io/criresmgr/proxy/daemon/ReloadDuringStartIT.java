package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.DumpConfig;
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
 * A configuration that becomes active while the daemon starts (a reload signal, which the process
 * takes before the daemon's parts exist) reaches the parts that were made from the configuration
 * read at the start: the policy's activation is held until the store has moved on, so the update
 * falls exactly between the two.
 */
class ReloadDuringStartIT {
  @TempDir Path dir;

  private final GatedActivation gate = new GatedActivation();

  @Test
  void aReloadWhileThePartsStartIsAppliedToThem() throws Exception {
    Config started = GatedActivation.config();
    Path dumpFile = dir.resolve("dump.log");
    Config reloaded =
        new Config(
            started.policy(),
            started.resourceManager(),
            new DumpConfig(DumpConfig.DEFAULT_RULES, dumpFile.toString(), false, false),
            started.logger(),
            started.instrumentation(),
            started.controllerSections());
    ConfigStore store = new ConfigStore(started);
    PolicyRegistry policies = gate.policies();
    try (SimRuntimeServer sim =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
            .start()) {
      CompletableFuture<Daemon> starting =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return Daemon.start(
                      TestDaemons.options(dir, sim.socket(), true), store, policies);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException(e);
                }
              });
      assertTrue(gate.awaitActivating(), "the policy was never activated");
      store.update(reloaded); // the parts exist but do not listen yet
      assertFalse(Files.exists(dumpFile), "nothing listened to the reload yet");
      gate.release();
      Daemon daemon = starting.get(60, TimeUnit.SECONDS);
      try {
        assertSame(reloaded, store.current());
        assertTrue(Files.exists(dumpFile), "the reloaded dump section was not applied");
      } finally {
        daemon.close();
      }
    }
  }
}
