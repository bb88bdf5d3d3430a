package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link PinningMemo} remembers is what {@link PinningOverrides#mentionsAny} says: a seeded
 * random run where the pods of a few ids come, go and are replaced by new objects with other
 * annotations, each answer compared with a fresh computation; removed pods are forgotten.
 */
class PinningMemoTest {
  private static final List<String> KEYS =
      List.of(
          "hide-hyperthreads.resource-policy.nri.io",
          "memory-type.cri-resource-manager.intel.com/pod",
          "memory.preserve.resource-policy.nri.io/container.c0",
          "cpu.preserve.resource-policy.nri.io",
          "hide-hyperthreadsX",
          "other");
  private static final int STEPS = 3000;

  @ParameterizedTest
  @ValueSource(longs = {1, 7, 20261128})
  void rememberedAnswersAreTheComputedOnes(long seed) {
    Random random = new Random(seed);
    NodeCache node = new NodeCache();
    PinningMemo memo = new PinningMemo();
    int hits = 0;
    for (int step = 0; step < STEPS; step++) {
      String id = "sandbox-" + random.nextInt(200);
      Pod pod = node.pod(id).orElse(null);
      int dice = random.nextInt(10);
      if (pod == null || dice == 0) {
        pod = pod(id, random);
        node.putPod(pod);
      } else if (dice == 1) {
        node.removePod(id);
      }
      int before = memo.size();
      boolean remembered = memo.mentionsAny(pod, node);
      assertEquals(PinningOverrides.mentionsAny(pod), remembered, "seed " + seed + " step " + step);
      if (memo.size() == before) {
        hits++;
      }
      assertTrue(memo.size() <= 2 * node.pods().size() + 65, "remembers " + memo.size());
    }
    assertTrue(hits > STEPS / 3, "remembered only " + hits + " times");
  }

  private static Pod pod(String id, Random random) {
    String key = KEYS.get(random.nextInt(KEYS.size()));
    Map<String, String> annotations =
        random.nextInt(4) == 0 ? Map.of() : Map.of(key, "true", "x" + random.nextInt(3), "y");
    return new Pod(
        id,
        "uid-" + id,
        id,
        "default",
        Map.of(),
        annotations,
        "/kubepods/" + id,
        QosClass.BURSTABLE,
        PodResources.NONE,
        true);
  }
}
