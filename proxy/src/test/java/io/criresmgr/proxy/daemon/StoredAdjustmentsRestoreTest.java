package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.cache.StoredAdjustments;
import io.criresmgr.cache.adjustment.AdjustmentParser;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.none.NonePolicyProvider;
import io.criresmgr.proxy.core.ActivePolicy;
import io.criresmgr.proxy.core.CacheSaver;
import io.criresmgr.proxy.core.Pipeline;
import io.criresmgr.proxy.core.Section;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a starting daemon does with the adjustments its cache stored: puts them in force when the
 * agent may change them, and otherwise takes every container's adjustment back, never leaving a
 * mix.
 */
class StoredAdjustmentsRestoreTest {
  private static final String GROW =
      "{\"scope\":[{\"containers\":[{\"key\":\"name\",\"operator\":\"Equals\",\"values\":[\"a\"]}]}],"
          + "\"classes\":{\"rdt\":\"gold\"}}";
  private static final String SET = "{\"grow\":" + GROW + "}";

  @TempDir Path dir;

  /** Restores with container a carrying grow's effect and {@code stored} in the cache. */
  private Section restore(@Nullable StoredAdjustments stored, boolean fromAgent) throws Exception {
    NodeCache cache = new NodeCache();
    cache.putPod(
        new Pod(
            "p",
            "uid-p",
            "web",
            "default",
            Map.of(),
            Map.of(),
            "/kubepods/burstable/poduid-p",
            QosClass.BURSTABLE,
            PodResources.NONE,
            true));
    Adjustment grow = AdjustmentParser.parse("n1", SET).specs().get("grow").effect();
    cache.putContainer(
        Container.builder()
            .cacheId("uid-p:a")
            .id("id-a")
            .podId("p")
            .name("a")
            .namespace("default")
            .image("img")
            .state(ContainerState.RUNNING)
            .resources(Resources.NONE)
            .qosClass(QosClass.BURSTABLE)
            .seq(1)
            .build()
            .withAdjustment(grow));
    cache.setAdjustments(stored);
    Section section =
        new Section(
            cache,
            new ActivePolicy(
                "none",
                new NonePolicyProvider()
                    .create(
                        new PolicyContext(
                            Path.of("/"), CpuSet.of(0), CpuSet.of(0), Map.of(), Map.of()),
                        PolicyOptions.NONE)),
            new ControllerSet(List.of()));
    try (Pipeline pipeline =
        new Pipeline(section, new CacheSaver(new CacheFile(dir)), EventLoops::madeByNetty)) {
      StoredAdjustmentsRestore.run(pipeline, fromAgent);
    }
    return section;
  }

  private static String rdtOfA(Section s) {
    return s.cache().container("uid-p:a").orElseThrow().adjustment().rdtClass();
  }

  @Test
  void theStoredSetIsInForceAgainWhenTheAgentCanChangeIt() throws Exception {
    StoredAdjustments stored = new StoredAdjustments("n1", SET);
    Section s = restore(stored, true);
    assertEquals("gold", rdtOfA(s));
    assertEquals(Set.of("grow"), s.adjustments().specs().keySet());
    assertEquals(Optional.of(stored), s.cache().adjustments());
  }

  @Test
  void withForceConfigEveryAdjustmentIsTakenBack() throws Exception {
    Section s = restore(new StoredAdjustments("n1", SET), false);
    assertEquals("", rdtOfA(s));
    assertEquals(Optional.empty(), s.cache().adjustments());
  }

  @Test
  void withoutAStoredSetWhatContainersCarryIsTakenBack() throws Exception {
    assertEquals("", rdtOfA(restore(null, true)));
  }

  @Test
  void aStoredSetThatNoLongerParsesIsTakenBack() throws Exception {
    Section s = restore(new StoredAdjustments("n1", "{\"grow\":{\"scope\":[]}}"), true);
    assertEquals("", rdtOfA(s));
    assertEquals(Optional.empty(), s.cache().adjustments());
  }

  @Test
  void aStoredSetThatNoLongerAppliesIsTakenBackAsAWhole() throws Exception {
    Section s =
        restore(new StoredAdjustments("n1", "{\"grow\":" + GROW + ",\"x\":" + GROW + "}"), true);
    assertEquals("", rdtOfA(s));
    assertEquals(Optional.empty(), s.cache().adjustments());
    assertEquals(Map.of(), s.adjustments().specs());
  }
}
