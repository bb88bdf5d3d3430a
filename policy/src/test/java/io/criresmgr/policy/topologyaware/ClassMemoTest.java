package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.CpuClassNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The classes {@link ClassMemo} remembers are the ones {@link CpuClassPlan#exclusiveClassOrDefault}
 * computes: a seeded random run where the pods of a few ids are replaced by new objects with other
 * annotations (per pod, per container, malformed, none) and QoS classes, and the containers by new
 * objects with other names, each answer compared with a fresh computation.
 */
class ClassMemoTest {
  private static final CpuClassNames NAMES = new CpuClassNames("res", "shared", "excl");
  private static final List<String> CLASSES = List.of("turbo", "slow", " ", "");
  private static final int STEPS = 3000;

  @ParameterizedTest
  @ValueSource(longs = {1, 7, 20261128})
  void rememberedClassesAreTheComputedOnes(long seed) {
    Random random = new Random(seed);
    ClassMemo memo = new ClassMemo();
    List<Pod> pods = new ArrayList<>();
    List<Container> containers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      pods.add(pod(i, random));
      containers.add(container(pods.get(i), random));
    }
    int hits = 0;
    for (int step = 0; step < STEPS; step++) {
      int i = random.nextInt(pods.size());
      int dice = random.nextInt(10);
      if (dice == 0) {
        pods.set(i, pod(i, random));
      } else if (dice == 1) {
        containers.set(i, container(pods.get(i), random));
      }
      Pod pod = pods.get(i);
      Container c = containers.get(i);
      int before = memo.size();
      String remembered = memo.cpuClass(pod, c, 3, NAMES);
      String fresh = CpuClassPlan.exclusiveClassOrDefault(pod, c, NAMES);
      assertEquals(fresh, remembered, "seed " + seed + ", step " + step);
      if (memo.size() == before && dice > 1) {
        hits++;
      }
    }
    assertTrue(hits > STEPS / 2, "remembered only " + hits + " times");
  }

  private static Pod pod(int i, Random random) {
    Map<String, String> annotations = new HashMap<>();
    String value = CLASSES.get(random.nextInt(CLASSES.size()));
    switch (random.nextInt(4)) {
      case 0 -> annotations.put("cpu-class.resource-policy.nri.io", value);
      case 1 -> annotations.put("cpu-class.cri-resource-manager.intel.com/pod", value);
      case 2 -> annotations.put("cpu-class.resource-policy.nri.io/container.c" + i, value);
      default -> annotations.put("other", value);
    }
    QosClass qos = random.nextBoolean() ? QosClass.GUARANTEED : QosClass.BURSTABLE;
    Pod base = Workloads.pod("default", qos, annotations);
    return new Pod(
        "sandbox-" + i,
        "uid-" + i,
        "p" + i,
        base.namespace(),
        base.labels(),
        base.annotations(),
        base.cgroupParent(),
        base.qosClass(),
        base.resources(),
        base.ready());
  }

  private static Container container(Pod pod, Random random) {
    String name = random.nextBoolean() ? "c" + pod.id().substring("sandbox-".length()) : "other";
    return Workloads.container(pod, name, new Resources(1000, 1000, 0, 0));
  }
}
