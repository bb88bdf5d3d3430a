package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.none.NonePolicyProvider;
import io.criresmgr.proxy.NoDecisions;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
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

  private final CountDownLatch activating = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  private record GateOptions() implements PolicyOptions {}

  /** Activates only once {@link #release} opens. */
  private final PolicyProvider<GateOptions> gate =
      new PolicyProvider<GateOptions>() {
        @Override
        public String name() {
          return "gate";
        }

        @Override
        public String description() {
          return "makes no decisions; its activation waits for the test";
        }

        @Override
        public GateOptions parseOptions(JsonNode section) {
          return new GateOptions();
        }

        @Override
        public Policy create(PolicyContext context, GateOptions options) {
          activating.countDown();
          try {
            if (!release.await(30, TimeUnit.SECONDS)) {
              throw new IllegalStateException("the test never released the activation");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
          return new NoDecisions();
        }
      };

  @Test
  void aReloadWhileThePartsStartIsAppliedToThem() throws Exception {
    Config base = TestDaemons.config();
    Config started =
        new Config(
            new PolicyConfig("gate", Map.of(), Map.of(), Map.of()),
            base.resourceManager(),
            base.dump(),
            base.logger(),
            base.instrumentation(),
            base.controllerSections());
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
    PolicyRegistry policies = new PolicyRegistry(List.of(new NonePolicyProvider(), gate));
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
      assertTrue(activating.await(30, TimeUnit.SECONDS), "the policy was never activated");
      store.update(reloaded); // the parts exist but do not listen yet
      assertFalse(Files.exists(dumpFile), "nothing listened to the reload yet");
      release.countDown();
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
