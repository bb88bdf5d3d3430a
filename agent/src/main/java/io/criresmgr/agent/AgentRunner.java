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
    Parts parts = Parts.assemble(ApiClients.create(options.kubeconfig()), options);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  parts.close();
                  stopped.countDown();
                },
                "agent-shutdown"));
    logStart(options);
    parts.start();
    awaitUninterruptibly(stopped);
    return 0;
  }

  private static void logStart(AgentOptions options) {
    log.info(
        "watching node {} and ConfigMaps {}.* in namespace {}, pushing to {}",
        options.names().nodeName(),
        options.names().baseName(),
        options.names().namespace(),
        options.configSocket());
  }

  /** The agent's running parts, closed in the order below (the server first). */
  private record Parts(
      AgentServer server,
      ConfigWatcher watcher,
      AdjustmentAgent adjustments,
      ExecutorScheduler scheduler,
      ConfigPusher pusher,
      NodeAnnotator annotator) {

    static Parts assemble(ApiClient client, AgentOptions options) throws IOException {
      ExecutorScheduler scheduler = new ExecutorScheduler("config-updates");
      ConfigPusher pusher =
          ConfigPusher.open(
              options.configSocket(), options.names().nodeName(), ConfigPusher.DEFAULT_RETRY_DELAY);
      ConfigWatcher watcher =
          new ConfigWatcher(
              client,
              options.names(),
              new ConfigChooser(options.names(), sink(scheduler, pusher)),
              Backoff.DEFAULT);
      AdjustmentAgent adjustments = adjustments(client, options);
      NodeApi node = new NodeApi(client, options.names().nodeName());
      NodeAnnotator annotator = new NodeAnnotator(node, Backoff.DEFAULT);
      pusher.onStatusChange(annotator);
      AgentServer server =
          AgentServer.start(
              options.agentSocket(), new AgentService(node, new HealthQueries(pusher::status)));
      return new Parts(server, watcher, adjustments, scheduler, pusher, annotator);
    }

    private static ConfigSink sink(ExecutorScheduler scheduler, ConfigPusher pusher) {
      return new RateLimitedSink(
          config -> {
            logConfig(config);
            pusher.accept(config);
          },
          scheduler,
          RateLimitedSink.DEFAULT_DELAY);
    }

    private static AdjustmentAgent adjustments(ApiClient client, AgentOptions options) {
      return AdjustmentAgent.create(
          client, options.names().namespace(), options.names().nodeName(), options.configSocket());
    }

    void start() {
      watcher.start();
      adjustments.start();
    }

    void close() {
      server.close();
      watcher.close();
      adjustments.close();
      scheduler.close();
      pusher.close();
      annotator.close();
    }
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
