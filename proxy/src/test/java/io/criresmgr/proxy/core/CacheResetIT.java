package io.criresmgr.proxy.core;

import static io.criresmgr.proxy.core.PipelineHarness.cpus;
import static io.criresmgr.proxy.core.PipelineHarness.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.proxy.CommandTree;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --reset-config} and {@code --reset-policy} on the cache file of a real daemon. */
class CacheResetIT {
  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void start() throws Exception {
    h = new PipelineHarness(dir);
  }

  @AfterEach
  void close() {
    h.close();
  }

  /** One command line run; starting the daemon would be a failure. */
  private record Run(int status, String out, String err) {}

  private Run cli(String flag) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] args = {
      "--relay-socket", h.relaySocket().toString(), "--relay-dir", h.relayDir().toString(), flag
    };
    int status =
        CommandTree.run(
            args,
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            (options, store, early) -> {
              throw new AssertionError("the daemon was started");
            },
            List.of());
    return new Run(status, out.toString(), err.toString());
  }

  @Test
  void bothResetsRefuseWhileTheDaemonServesTheRelaySocket() throws Exception {
    h.startDaemon();
    String pod = h.runPod("web");
    String a = h.createAndStart(pod, "a");
    h.awaitCache("a running", c -> state(c, a).equals("RUNNING"));
    String before = Files.readString(h.cacheFile());

    for (String flag : List.of("--reset-policy", "--reset-config")) {
      Run run = cli(flag);
      assertEquals(1, run.status(), flag + ": " + run);
      assertEquals(
          "refusing to reset the cache: a process serves "
              + h.relaySocket()
              + " or uses "
              + h.relayDir()
              + "; stop cri-resmgr first\n",
          run.err(),
          flag);
    }
    assertEquals(before, Files.readString(h.cacheFile()));
  }

  @Test
  void theResetsEditTheCacheOfAStoppedDaemonAndTheNextStartAllocatesAfresh() throws Exception {
    h.startDaemon();
    String pod = h.runPod("web");
    String a = h.createAndStart(pod, "a");
    h.awaitCache("a running", c -> state(c, a).equals("RUNNING"));
    h.stopDaemon();
    ObjectMapper json = new ObjectMapper();
    ObjectNode edited = (ObjectNode) h.cache();
    edited.put("AgentConfig", "policy:\n  Active: none\n");
    edited.putObject("Adjustments").put("NodeName", "n1").put("JSON", "{}");
    ((ObjectNode) edited.path("PolicyData")).putObject(ExclusiveCpusTestPolicyProvider.NAME);
    Files.writeString(h.cacheFile(), json.writeValueAsString(edited));

    Run config = cli("--reset-config");
    assertEquals(0, config.status(), config.toString());
    assertEquals(
        "removed the stored agent configuration and adjustments from " + h.cacheFile() + "\n",
        config.out());
    JsonNode cache = h.cache();
    assertTrue(cache.path("AgentConfig").isNull(), cache.toPrettyString());
    assertTrue(cache.path("Adjustments").isNull(), cache.toPrettyString());
    assertEquals(ExclusiveCpusTestPolicyProvider.NAME, cache.path("PolicyName").asText());
    assertEquals("0", cpus(cache, a));

    Run policy = cli("--reset-policy");
    assertEquals(0, policy.status(), policy.toString());
    assertEquals(
        "removed the active policy and all policy data from " + h.cacheFile() + "\n", policy.out());
    cache = h.cache();
    assertEquals("", cache.path("PolicyName").asText());
    assertEquals(0, cache.path("PolicyData").size(), cache.toPrettyString());
    assertEquals("", cpus(cache, a));
    assertEquals("RUNNING", state(cache, a));

    h.runtime().hooks().reset();
    h.startDaemon();
    h.awaitCache(
        "a allocated afresh",
        c ->
            c.path("PolicyName").asText().equals(ExclusiveCpusTestPolicyProvider.NAME)
                && cpus(c, a).equals("0"));
    assertEquals(
        List.of(a),
        h
            .runtime()
            .hooks()
            .requests("UpdateContainerResources", UpdateContainerResourcesRequest.class)
            .stream()
            .map(UpdateContainerResourcesRequest::getContainerId)
            .toList());
    h.awaitCpuset(a, "0");
  }
}
