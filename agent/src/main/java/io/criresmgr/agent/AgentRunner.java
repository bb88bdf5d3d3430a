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
import io.criresmgr.agent.kube.NodeApi;
import io.criresmgr.agent.push.ConfigPusher;
import io.criresmgr.agent.server.AgentServer;
import io.criresmgr.agent.server.AgentService;
import io.criresmgr.agent.server.HealthQueries;
import io.criresmgr.agent.status.NodeAnnotator;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running agent: watches the cluster and pushes each newly chosen configuration, rate-limited,
 * to cri-resmgr's Config service on the config socket; serves the Agent API on the agent socket and
 * shows the daemon's verdict in the Node's annotations.
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
    NodeApi node = new NodeApi(client, options.names().nodeName());
    NodeAnnotator annotator = new NodeAnnotator(node, Backoff.DEFAULT);
    pusher.onStatusChange(annotator);
    AgentServer server =
        AgentServer.start(
            options.agentSocket(), new AgentService(node, new HealthQueries(pusher::status)));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  watcher.close();
                  adjustments.close();
                  scheduler.close();
                  pusher.close();
                  annotator.close();
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
