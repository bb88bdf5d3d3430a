package io.criresmgr.agent.kube;

import static io.criresmgr.agent.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.criresmgr.agent.adjust.AdjustmentAgent;
import io.criresmgr.agent.push.FakeConfigServer;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adjustment side against a fake API server over real HTTP and a fake daemon on a real Unix
 * socket: what is sent with SetAdjustment, and what is written back to the adjustments' status.
 */
class AdjustmentAgentIT {
  private static final String NODE = "worker-1";
  private static final Backoff FAST = new Backoff(Duration.ofMillis(50), Duration.ofMillis(200));
  private static final String BOOST =
      """
      {"scope":[{"nodes":["worker-*"],"containers":[{"key":"name","operator":"Equals","values":["x"]}]},
                {"nodes":["n9"]}],
       "resources":{"requests":{"cpu":"500m"},"limits":{"cpu":1,"memory":"1Gi"}}}""";
  private static final String GOLD =
      """
      {"scope":[{"containers":[{"key":"pod/labels/app","operator":"In","values":["db"]}]}],
       "classes":{"rdt":"gold","blockio":"slow"},"toptierLimit":"2Gi"}""";
  private static final String ELSEWHERE = "{\"scope\":[{\"nodes\":[\"n9\",\"worker\"]}]}";

  @TempDir Path dir;
  private final FakeApiServer api = new FakeApiServer("kube-system");
  private @Nullable FakeConfigServer daemon;
  private @Nullable AdjustmentAgent agent;

  @BeforeEach
  void startApi() throws IOException {
    api.putAdjustment("boost", BOOST);
    api.putAdjustment("gold", GOLD);
    api.putAdjustment("elsewhere", ELSEWHERE);
    api.start();
  }

  @AfterEach
  void stop() throws IOException {
    if (agent != null) {
      agent.close();
    }
    if (daemon != null) {
      daemon.close();
    }
    api.close();
  }

  private Path socket() {
    return dir.resolve("config.sock");
  }

  private FakeConfigServer startDaemon() throws IOException {
    daemon = FakeConfigServer.start(socket(), config -> "");
    return daemon;
  }

  private AdjustmentAgent startAgent() {
    AdjustmentAgent started =
        AdjustmentAgent.create(
            new AdjustmentAgent.Settings(
                ApiClients.forUrl(api.url()),
                "kube-system",
                NODE,
                socket(),
                Duration.ofMillis(50),
                Duration.ofMillis(100),
                FAST));
    started.start();
    agent = started;
    return started;
  }

  private static final String SENT_BOOST =
      """
      {"scope":[{"nodes":["worker-*"],"containers":[{"key":"name","operator":"Equals","values":["x"]}]}],
       "resources":{"requests":{"cpu":"500m"},"limits":{"cpu":"1","memory":"1Gi"}}}""";
  private static final String SENT_GOLD =
      """
      {"scope":[{"nodes":[],"containers":[{"key":"pod/labels/app","operator":"In","values":["db"]}]}],
       "classes":{"rdt":"gold","blockio":"slow"},"toptierLimit":"2Gi"}""";

  @Test
  void sendsTheInScopeAdjustmentsWithTheirScopeCutToTheNode() throws Exception {
    FakeConfigServer server = startDaemon();
    startAgent();
    await(() -> server.adjustments().size() == 1);
    assertEquals(NODE, server.adjustmentRequests().get(0).getNodeName());
    assertJson(
        "{\"boost\":" + SENT_BOOST + ",\"gold\":" + SENT_GOLD + "}", server.adjustments().get(0));
  }

  @Test
  void changesAreSentAgainAndLeavingScopeSendsAnEmptyObject() throws Exception {
    FakeConfigServer server = startDaemon();
    startAgent();
    await(() -> server.adjustments().size() == 1);
    api.putAdjustment("gold", GOLD.replace("gold", "silver"));
    awaitLast(
        server,
        "{\"boost\":" + SENT_BOOST + ",\"gold\":" + SENT_GOLD.replace("gold", "silver") + "}");
    api.deleteAdjustment("gold");
    awaitLast(server, "{\"boost\":" + SENT_BOOST + "}");
    api.putAdjustment("boost", ELSEWHERE);
    awaitLast(server, "{}");
  }

  @Test
  void replyErrorsLandInTheStatusAndAreClearedByACleanReply() throws Exception {
    FakeConfigServer server = startDaemon();
    server.answerAdjustments(
        json -> Map.of("c1", "cache: conflicting adjustments", "request", "x"));
    startAgent();
    Map<String, String> errors = Map.of("c1", "cache: conflicting adjustments", "request", "x");
    await(() -> errors.equals(nodeErrors("boost")) && errors.equals(nodeErrors("gold")));
    assertNull(api.adjustment("elsewhere").get("status"));

    server.answerAdjustments(json -> Map.of());
    api.putAdjustment("gold", GOLD.replace("slow", "fast"));
    await(() -> Map.of().equals(nodeErrors("boost")) && Map.of().equals(nodeErrors("gold")));
    assertJson(
        "{\"status\":{\"nodes\":{\"worker-1\":{\"errors\":{\"c1\":null,\"request\":null}}}}}",
        api.statusPatches().get(api.statusPatches().size() - 1));
  }

  @Test
  void anAdjustmentThatLeavesScopeLosesTheNodesStatusEntry() throws Exception {
    FakeConfigServer server = startDaemon();
    startAgent();
    await(() -> Map.of().equals(nodeErrors("gold")));
    api.putAdjustment("gold", ELSEWHERE);
    awaitLast(server, "{\"boost\":" + SENT_BOOST + "}");
    await(
        () -> api.adjustment("gold").getAsJsonObject("status").getAsJsonObject("nodes").isEmpty());
    assertJson(
        "{\"status\":{\"nodes\":{\"worker-1\":null}}}",
        api.statusPatches().get(api.statusPatches().size() - 1));
  }

  @Test
  void waitsForTheDaemonAndPushesAgainWhenItRestarts() throws Exception {
    AdjustmentAgent started = startAgent();
    await(() -> started.current().map(c -> c.names().size() == 2).orElse(false));
    api.deleteAdjustment("gold");
    // The delete reaches the agent through its watch while no daemon listens; the first push
    // then carries the state after it.
    await(() -> started.current().map(c -> c.names().equals(Set.of("boost"))).orElse(false));
    FakeConfigServer first = startDaemon();
    await(() -> Map.of().equals(nodeErrors("boost")));
    assertEquals(1, first.adjustments().size());
    assertJson("{\"boost\":" + SENT_BOOST + "}", first.adjustments().get(0));
    int patches = api.statusPatches().size();
    first.close();
    FakeConfigServer second = startDaemon();
    await(() -> second.adjustments().size() == 1);
    assertJson("{\"boost\":" + SENT_BOOST + "}", second.adjustments().get(0));
    // A later adjustment is pushed after that push and patched once: boost's status, unchanged
    // by the second daemon's answer, was not patched again in between.
    api.putAdjustment("silver", GOLD.replace("gold", "silver"));
    await(() -> Map.of().equals(nodeErrors("silver")));
    assertEquals(patches + 1, api.statusPatches().size(), "unchanged status is not patched again");
  }

  @Test
  void anUndecodableSetIsNotSentAgain() throws Exception {
    FakeConfigServer server = startDaemon();
    server.failAdjustments(Status.INVALID_ARGUMENT.withDescription("cannot decode"));
    startAgent();
    await(() -> server.adjustments().size() == 1);
    server.failAdjustments(null);
    api.deleteAdjustment("gold");
    awaitLast(server, "{\"boost\":" + SENT_BOOST + "}");
    // The change is the second push: the undecodable set was not sent again before it, and its
    // answer wrote no status (the first patch is the answer to the change).
    assertEquals(2, server.adjustments().size());
    await(() -> Map.of().equals(nodeErrors("boost")));
    assertEquals(1, api.statusPatches().size(), api.statusPatches().toString());
  }

  @Test
  void anAppliedAdjustmentEditedIntoAnInvalidOneReportsTheParseError() throws Exception {
    FakeConfigServer server = startDaemon();
    startAgent();
    await(() -> Map.of().equals(nodeErrors("gold")));
    api.putAdjustment("gold", GOLD.replace("\"2Gi\"", "[1]"));
    awaitLast(server, "{\"boost\":" + SENT_BOOST + "}");
    await(() -> nodeErrors("gold") != null && !nodeErrors("gold").isEmpty());
    assertEquals(
        Map.of(
            "request",
            "adjustment gold: toptierLimit: expected a quantity (a string such as \"500m\" or"
                + " \"1Gi\", or a number), got a list"),
        nodeErrors("gold"));
    assertEquals(Map.of(), nodeErrors("boost"));
  }

  @Test
  void anInvalidAdjustmentOutOfScopeOrWithoutAReadableScopeLosesTheNodesEntry() throws Exception {
    FakeConfigServer server = startDaemon();
    startAgent();
    await(() -> Map.of().equals(nodeErrors("gold")) && Map.of().equals(nodeErrors("boost")));
    api.putAdjustment("gold", "{\"scope\":5}");
    api.putAdjustment("boost", "{\"scope\":[{\"nodes\":[\"n9\"]}],\"toptierLimit\":[1]}");
    awaitLast(server, "{}");
    await(() -> nodeErrors("gold") == null && nodeErrors("boost") == null);
  }

  @Test
  void failedStatusPatchesAreRetried() throws Exception {
    api.failStatusPatches(500);
    startDaemon();
    startAgent();
    // Both adjustments' first patches were refused before patches are let through.
    await(() -> api.refusedStatusPatches() >= 2);
    assertEquals(List.of(), api.statusPatches());
    api.failStatusPatches(0);
    await(() -> Map.of().equals(nodeErrors("boost")) && Map.of().equals(nodeErrors("gold")));
  }

  private @Nullable Map<String, String> nodeErrors(String name) {
    JsonObject object = api.adjustment(name);
    JsonElement status = object == null ? null : object.get("status");
    if (status == null) {
      return null;
    }
    JsonObject entry = status.getAsJsonObject().getAsJsonObject("nodes").getAsJsonObject(NODE);
    if (entry == null) {
      return null;
    }
    Map<String, String> errors = new TreeMap<>();
    entry
        .getAsJsonObject("errors")
        .entrySet()
        .forEach(e -> errors.put(e.getKey(), e.getValue().getAsString()));
    return errors;
  }

  private static void assertJson(String expected, String actual) {
    assertEquals(JsonParser.parseString(expected), JsonParser.parseString(actual), actual);
  }

  private static void awaitLast(FakeConfigServer server, String json) throws InterruptedException {
    JsonElement expected = JsonParser.parseString(json);
    await(
        () -> {
          List<String> sent = server.adjustments();
          return !sent.isEmpty()
              && expected.equals(JsonParser.parseString(sent.get(sent.size() - 1)));
        });
  }
}
