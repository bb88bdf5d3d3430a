package io.criresmgr.proxy.daemon;

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
import io.criresmgr.proxy.config.PolicyConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A policy {@code gate} whose activation waits until the test {@link #release}s it: it holds a
 * daemon's start in the middle, after the store, instrumentation and health exist and before the
 * parts that listen or serve requests do.
 */
final class GatedActivation {
  private final CountDownLatch activating = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  private record GateOptions() implements PolicyOptions {}

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

  /** The policies {@code none} and {@code gate}. */
  PolicyRegistry policies() {
    return new PolicyRegistry(List.of(new NonePolicyProvider(), gate));
  }

  /** {@link TestDaemons#config()} with the policy {@code gate}. */
  static Config config() {
    Config base = TestDaemons.config();
    return new Config(
        new PolicyConfig("gate", Map.of(), Map.of(), Map.of()),
        base.resourceManager(),
        base.dump(),
        base.logger(),
        base.instrumentation(),
        base.controllerSections());
  }

  /** Waits until the activation has begun; false after 30 s. */
  boolean awaitActivating() throws InterruptedException {
    return activating.await(30, TimeUnit.SECONDS);
  }

  /** Lets the activation end. */
  void release() {
    release.countDown();
  }
}
