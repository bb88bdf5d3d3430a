package io.criresmgr.proxy.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model's topology tree: every CPU once, under its package, die, node, L3 cache and core. */
class TopologyJsonTest {
  @Test
  void l3CachesGroupTheCoresOfANode() {
    SystemTopology t = TopologySpec.builtIn("epyc").topology();
    JsonNode tree = TopologyJson.write(t);
    assertEquals(cpusOf(t), leaves(tree));
    JsonNode node = tree.get("packages").get(0).get("dies").get(0).get("nodes").get(0);
    assertEquals(2, node.get("caches").size(), "8 cores of a node, 4 per L3");
    JsonNode l3 = node.get("caches").get(0);
    assertEquals(l3.get("l3").asText(), l3.get("cpus").asText());
    assertEquals(4, l3.get("cores").size());
    assertEquals(2, l3.get("cores").get(0).get("cpus").size(), "two hyperthreads");
    assertEquals(t.nodes().size(), tree.get("nodes").size());
  }

  @Test
  void withoutKnownCachesCoresSitInOneGroupWithoutL3() {
    SystemTopology t = TopologySpec.parse("[{mem: 1G, cores: 2, nodes: 2}]").topology();
    SystemTopology uncached =
        new SystemTopology(t.cpus(), t.nodes(), t.presentCpus(), t.isolatedCpus());
    JsonNode node =
        TopologyJson.write(uncached).get("packages").get(0).get("dies").get(0).get("nodes").get(1);
    assertEquals(1, node.get("caches").size());
    assertTrue(node.get("caches").get(0).get("l3").isNull());
    assertEquals("4-7", node.get("caches").get(0).get("cpus").asText());
  }

  @Test
  void everyCpuOfA4096CpuNodeAppearsOnce() {
    SystemTopology t = TopologySpec.builtIn("s8c4096").topology();
    JsonNode tree = TopologyJson.write(t);
    assertEquals(4096, t.onlineCpus().size());
    assertEquals(cpusOf(t), leaves(tree));
    assertEquals(8, tree.get("packages").size());
  }

  private static List<Integer> cpusOf(SystemTopology t) {
    return new ArrayList<>(t.cpus().keySet());
  }

  /** The CPUs of the tree's cores, in tree order, sorted: each once if the tree is right. */
  private static List<Integer> leaves(JsonNode tree) {
    List<Integer> cpus = new ArrayList<>();
    for (JsonNode p : tree.get("packages")) {
      for (JsonNode d : p.get("dies")) {
        for (JsonNode n : d.get("nodes")) {
          for (JsonNode g : n.get("caches")) {
            g.get("cores").forEach(c -> c.get("cpus").forEach(id -> cpus.add(id.asInt())));
          }
        }
      }
    }
    cpus.sort(null);
    return cpus;
  }
}
