package io.criresmgr.agent;

import io.criresmgr.agent.adjust.AdjustmentAgent;
import io.criresmgr.agent.config.ChosenConfig;
import io.criresmgr.agent.config.ConfigChooser;
import io.criresmgr.agent.config.ConfigSink;
import io.criresmgr.agent.config.ExecutorScheduler;
import io.criresmgr.agent.config.RateLimitedSink;
import io.criresmgr.agent.kube.ApiClients;
import io.criresmgr.agent.kube.Backoff;
import io.criresmgr.agent.kube.ConfigWatcher;
import io.criresmgr.agent.push.ConfigPusher;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running agent: watches the cluster and pushes each newly chosen configuration, rate-limited,
 * to cri-resmgr's Config service on the config socket.
 */
final class AgentRunner {
  private static final Logger log = LoggerFactory.getLogger(AgentRunner.class);

  private AgentRunner() {}

  /** Runs until the JVM shuts down (SIGTERM, SIGINT); returns 0 then. */
  static int runUntilShutdown(AgentOptions options) throws IOException {
    ApiClient client = ApiClients.create(options.kubeconfig());
    ExecutorScheduler scheduler = new ExecutorScheduler("config-updates");
    ConfigPusher pusher =
        ConfigPusher.open(
            options.configSocket(), options.names().nodeName(), ConfigPusher.DEFAULT_RETRY_DELAY);
    ConfigSink sink =
        new RateLimitedSink(
            config -> {
              logConfig(config);
              pusher.accept(config);
            },
            scheduler,
            RateLimitedSink.DEFAULT_DELAY);
    ConfigWatcher watcher =
        new ConfigWatcher(
            client, options.names(), new ConfigChooser(options.names(), sink), Backoff.DEFAULT);
    AdjustmentAgent adjustments =
        AdjustmentAgent.create(
            client,
            options.names().namespace(),
            options.names().nodeName(),
            options.configSocket());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  watcher.close();
                  adjustments.close();
                  scheduler.close();
                  pusher.close();
                  stopped.countDown();
                },
                "agent-shutdown"));
    log.info(
        "watching node {} and ConfigMaps {}.* in namespace {}, pushing to {}",
        options.names().nodeName(),
        options.names().baseName(),
        options.names().namespace(),
        options.configSocket());
    watcher.start();
    adjustments.start();
    awaitUninterruptibly(stopped);
    return 0;
  }

  private static void logConfig(ChosenConfig config) {
    log.info(
        "configuration from {}: sections {}",
        config.source(),
        config.data().keySet().stream().sorted().toList());
    config.data().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> log.debug("section {}:\n{}", e.getKey(), e.getValue()));
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
