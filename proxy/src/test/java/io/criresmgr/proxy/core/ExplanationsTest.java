package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.Explanation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the daemon keeps of the policy's explanations: per container, and the last refusals. */
class ExplanationsTest {
  private final Explanations kept = new Explanations();

  private static Pod pod(String name) {
    return new Pod(
        "sandbox-" + name,
        "uid-" + name,
        name,
        "default",
        Map.of(),
        Map.of(),
        "/kubepods/pod" + name,
        QosClass.GUARANTEED,
        PodResources.NONE,
        true);
  }

  private static Container container(Pod pod, String name) {
    return Container.builder()
        .cacheId(Container.cacheId(pod.uid(), name))
        .podId(pod.id())
        .name(name)
        .namespace(pod.namespace())
        .image("busybox")
        .state(ContainerState.CREATING)
        .resources(Resources.NONE)
        .qosClass(QosClass.BEST_EFFORT)
        .build();
  }

  private List<String> refused() {
    return kept.refusals().stream().map(r -> r.pod() + "/" + r.container()).toList();
  }

  @Test
  void aContainersExplanationIsKeptUntilItLeaves() {
    Pod p = pod("p");
    Container c = container(p, "c0");
    kept.placed(c, p, Explanation.of("pool A"));
    kept.placed(c, p, Explanation.of("pool B"));
    assertEquals(Explanation.of("pool B"), kept.of(c.cacheId()).orElseThrow());
    assertEquals(Map.of(c.cacheId(), Explanation.of("pool B")), kept.byContainer());
    kept.removed(c.cacheId());
    assertTrue(kept.of(c.cacheId()).isEmpty());
  }

  @Test
  void theLastRefusalsAreKeptOnePerContainerAndPlacingOneDropsIt() {
    for (int i = 0; i < Explanations.MAX_REFUSALS + 2; i++) {
      Pod p = pod("p" + i);
      kept.refused(container(p, "c0"), p, "failed " + i, Explanation.of("refused: " + i));
    }
    assertEquals(Explanations.MAX_REFUSALS, kept.refusals().size());
    assertEquals("p2/c0", refused().get(0), "the oldest two dropped");
    Pod p2 = pod("p2");
    long before = kept.changes();
    kept.refused(container(p2, "c0"), p2, "again", Explanation.of("refused: again"));
    assertEquals(Explanations.MAX_REFUSALS, kept.refusals().size());
    assertEquals("p2/c0", refused().get(refused().size() - 1), "the newest last, once");
    assertEquals("again", kept.refusals().get(refused().size() - 1).message());
    kept.placed(container(p2, "c0"), p2, Explanation.of("pool A"));
    assertEquals(Explanations.MAX_REFUSALS - 1, kept.refusals().size());
    assertTrue(kept.changes() > before + 1, "each refusal and each dropped one moves changes");
  }
}
