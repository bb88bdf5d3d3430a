package io.criresmgr.proxy.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.CpuSet;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code /ui/node.json} and {@code /ui/version} of a daemon with each built-in policy on a fake
 * host of 2 NUMA nodes of 4 CPUs: the topology, the policy's CPU sets and a container on its CPUs.
 */
class NodeViewIT {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "topology-aware, exclusive reserved shared",
    "balloons, balloon free reserved",
    "template, exclusive shared",
    "none, ''"
  })
  void theModelShowsTopologyPolicySetsAndContainers(String policy, String kinds) throws Exception {
    try (ViewedDaemon node = new ViewedDaemon(dir, policy)) {
      String before = node.get("/ui/version").strip();
      node.createContainer("pod0", 1);
      JsonNode model = node.model();
      assertNotEquals(before, node.get("/ui/version").strip(), "the version moved");
      assertEquals(node.get("/ui/version").strip(), model.get("version").asText());
      assertEquals(NodeModel.FORMAT, model.get("format").asInt());
      assertEquals(policy, model.get("policy").asText());
      topology(model.get("topology"));
      assertEquals(kinds.isEmpty() ? Set.of() : Set.of(kinds.split(" ")), kindsOf(model));
      JsonNode c = ViewedDaemon.container(model, "uid-pod0:c0");
      assertEquals("Guaranteed", c.get("qosClass").asText());
      assertEquals(1000, c.get("requests").get("cpuMilli").asLong());
      assertEquals(256L << 20, c.get("limits").get("memoryBytes").asLong());
      CpuSet cpus = CpuSet.parse(c.get("cpus").asText());
      assertEquals(policy.equals("none"), cpus.isEmpty(), "none pins nothing: " + cpus);
      assertTrue(placed(model).containsAll(cpus), cpus + " within the policy's sets");
    }
  }

  @Test
  void thePageItsScriptAndStyleAreServedFromTheJar() throws Exception {
    try (ViewedDaemon node = new ViewedDaemon(dir, "none")) {
      assertTrue(node.get("/ui").contains("<script src=\"/ui/view.js\">"));
      assertEquals(node.get("/ui"), node.get("/ui/"));
      assertTrue(node.get("/ui/view.js").contains("/ui/node.json"));
      assertTrue(node.get("/ui/view.css").contains(".cpu"));
    }
  }

  private static void topology(JsonNode t) {
    assertEquals("0-7", t.get("cpus").asText());
    assertEquals(1, t.get("packages").size());
    JsonNode nodes = t.get("packages").get(0).get("dies").get(0).get("nodes");
    assertEquals(2, nodes.size());
    assertEquals("4-7", nodes.get(1).get("cpus").asText());
    JsonNode cores = nodes.get(1).get("caches").get(0).get("cores");
    assertEquals("[4,5]", cores.get(0).get("cpus").toString(), "hyperthreads of a core");
    assertEquals("dram", t.get("nodes").get(0).get("memoryType").asText());
    assertEquals(2L << 30, t.get("nodes").get(0).get("memoryBytes").asLong());
  }

  private static Set<String> kindsOf(JsonNode model) {
    Set<String> kinds = new TreeSet<>();
    model.get("cpuSets").forEach(s -> kinds.add(s.get("kind").asText()));
    return kinds;
  }

  private static CpuSet placed(JsonNode model) {
    CpuSet all = CpuSet.EMPTY;
    for (JsonNode s : model.get("cpuSets")) {
      all = all.union(CpuSet.parse(s.get("cpus").asText()));
    }
    return all;
  }
}
