package io.criresmgr.agent.push;

import static io.criresmgr.agent.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.agent.config.ChosenConfig;
import io.criresmgr.agent.push.ConfigStatus.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pusher over a real Unix socket against a fake {@code v1.Config} server. */
class ConfigPusherIT {
  private static final Duration RETRY = Duration.ofMillis(100);
  private static final Map<String, String> A = Map.of("policy", "Active: balloons\n");
  private static final Map<String, String> B = Map.of("logger", "Debug: cache\n");
  private static final Map<String, String> BAD = Map.of("policy", "Nonsense: [\n");

  @TempDir Path dir;
  private Path socket;
  private ConfigPusher pusher;

  @BeforeEach
  void open() {
    socket = dir.resolve("run/cri-resmgr-config.sock");
    pusher = ConfigPusher.open(socket, "node-1", RETRY);
  }

  @AfterEach
  void close() {
    pusher.close();
  }

  private static String rejectBad(Map<String, String> config) {
    return config.equals(BAD) ? "agent configuration: section policy: bad" : "";
  }

  @Test
  void pushesTheConfigurationWithTheNodeName() throws Exception {
    try (FakeConfigServer server = FakeConfigServer.start(socket, ConfigPusherIT::rejectBad)) {
      pusher.accept(ChosenConfig.of("cri-resmgr-config.default", A));
      await(() -> pusher.status().verdict() == Verdict.ACCEPTED);
      assertEquals(ConfigStatus.accepted("ConfigMap cri-resmgr-config.default"), pusher.status());
      assertEquals("node-1", server.requests().get(0).getNodeName());
      assertEquals(List.of(A), server.configs());
    }
  }

  @Test
  void aRejectionIsKeptAsTheStatusAndNotRetried() throws Exception {
    try (FakeConfigServer server = FakeConfigServer.start(socket, ConfigPusherIT::rejectBad)) {
      assertEquals(ConfigStatus.PENDING, pusher.status());
      pusher.accept(ChosenConfig.of("cri-resmgr-config.default", BAD));
      await(() -> pusher.status().verdict() == Verdict.REJECTED);
      assertEquals(
          ConfigStatus.rejected(
              "ConfigMap cri-resmgr-config.default", "agent configuration: section policy: bad"),
          pusher.status());
      Thread.sleep(RETRY.multipliedBy(5).toMillis());
      assertEquals(List.of(BAD), server.configs());

      pusher.accept(ChosenConfig.of("cri-resmgr-config.default", B));
      await(() -> pusher.status().verdict() == Verdict.ACCEPTED);
      assertEquals(List.of(BAD, B), server.configs());
    }
  }

  @Test
  void retriesUntilTheDaemonIsThereWithTheLatestConfigurationOnly() throws Exception {
    pusher.accept(ChosenConfig.of("cri-resmgr-config.default", A));
    Thread.sleep(RETRY.multipliedBy(3).toMillis());
    pusher.accept(ChosenConfig.of("cri-resmgr-config.node.node-1", B));
    Thread.sleep(RETRY.multipliedBy(3).toMillis());
    assertEquals(ConfigStatus.PENDING, pusher.status());
    try (FakeConfigServer server = FakeConfigServer.start(socket, ConfigPusherIT::rejectBad)) {
      await(() -> pusher.status().verdict() == Verdict.ACCEPTED);
      assertEquals(
          ConfigStatus.accepted("ConfigMap cri-resmgr-config.node.node-1"), pusher.status());
      assertEquals(List.of(B), server.configs());
    }
  }

  @Test
  void pushesAgainWhenTheDaemonRestarts() throws Exception {
    try (FakeConfigServer first = FakeConfigServer.start(socket, ConfigPusherIT::rejectBad)) {
      pusher.accept(ChosenConfig.of("cri-resmgr-config.default", A));
      await(() -> first.configs().size() == 1);
    }
    try (FakeConfigServer second = FakeConfigServer.start(socket, ConfigPusherIT::rejectBad)) {
      await(() -> second.configs().size() == 1);
      assertEquals(List.of(A), second.configs());
      assertEquals(ConfigStatus.accepted("ConfigMap cri-resmgr-config.default"), pusher.status());
    }
  }
}
