package io.criresmgr.proxy.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.NoDecisions;
import io.criresmgr.proxy.core.ActivePolicy;
import io.criresmgr.proxy.core.CacheSaver;
import io.criresmgr.proxy.core.Pipeline;
import io.criresmgr.proxy.core.Section;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the version moves, when the model is rebuilt, and a host whose sysfs cannot be read. */
class NodeViewTest {
  @TempDir Path dir;
  private Pipeline pipeline;

  @BeforeEach
  void start() {
    Section section =
        new Section(
            new NodeCache(),
            new ActivePolicy("none", new NoDecisions()),
            new ControllerSet(List.of()));
    pipeline = new Pipeline(section, new CacheSaver(new CacheFile(dir)), EventLoops::madeByNetty);
  }

  @AfterEach
  void stop() {
    pipeline.close();
  }

  private long step(Consumer<Section> change) throws Exception {
    pipeline
        .run(
            s -> {
              change.accept(s);
              return null;
            })
        .get(5, TimeUnit.SECONDS);
    return pipeline.version();
  }

  private static Pod pod(String name) {
    return new Pod(
        "sandbox-" + name,
        "uid-" + name,
        name,
        "default",
        Map.of(),
        Map.of(),
        "/kubepods/pod" + name,
        QosClass.BEST_EFFORT,
        PodResources.NONE,
        true);
  }

  @Test
  void theVersionMovesWhenTheCacheChangesOrThePolicyIsReplaced() throws Exception {
    long first = step(s -> {});
    assertEquals(first, step(s -> {}), "a step that changed nothing");
    long added = step(s -> s.cache().putPod(pod("a")));
    assertTrue(added > first, "a pod added");
    long replaced = step(s -> s.setPolicy(new ActivePolicy("none", new NoDecisions())));
    assertTrue(replaced > added, "the policy replaced");
  }

  @Test
  void theModelIsBuiltAgainOnlyWhenTheVersionMoved() throws Exception {
    NodeView view = new NodeView(pipeline, dir.resolve("host"));
    String before = view.json();
    assertSame(before, view.json(), "the last model, while nothing changed");
    step(s -> s.cache().putPod(pod("a")));
    String after = view.json();
    assertNotEquals(before, after);
    JsonNode model = new ObjectMapper().readTree(after);
    assertEquals(pipeline.version(), model.get("version").asLong());
    assertEquals("a", model.get("pods").get(0).get("name").asText());
    assertEquals("BestEffort", model.get("pods").get(0).get("qosClass").asText());
  }

  @Test
  void aHostWithoutSysfsGivesATopologyWithTheReason() throws Exception {
    JsonNode model = new ObjectMapper().readTree(new NodeView(pipeline, dir).json());
    JsonNode topology = model.get("topology");
    assertTrue(
        topology.get("error").asText().contains("sys/devices/system/cpu/online: missing"),
        topology.toString());
    assertEquals(0, topology.get("packages").size());
    assertEquals("none", model.get("policy").asText());
    assertEquals(0, model.get("cpuSets").size());
  }
}
