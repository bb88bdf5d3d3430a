package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.CpuClassNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CPU classes a working ledger keeps between decisions (see {@link Ledger#cpuClasses}) are the
 * ones {@link CpuClassPlan#of} computes from its grants: on n4c16 (CPU 0 reserved), a seeded random
 * run of creations and releases of shared-only (Burstable, BestEffort, fractional and kube-system)
 * and exclusive (Guaranteed, some with class annotations per pod or per container) containers,
 * single container exits, rebalances and restarts, checked after every step.
 */
class CpuClassesCacheTest {
  private static final String NRI_CLASS = "cpu-class.resource-policy.nri.io";
  private static final String CRI_CLASS = "cpu-class.cri-resource-manager.intel.com";
  private static final CpuClassNames NAMES = new CpuClassNames("res", "shared", "excl");
  private static final TopologyAwareOptions OPTIONS =
      TopologyAwareOptions.builder().cpuClasses(NAMES).build();
  private static final int STEPS = 400;

  @ParameterizedTest
  @ValueSource(longs = {1, 7, 42, 20261128})
  void keptClassesAreTheClassesOfTheCurrentGrants(long seed) {
    Harness h = Harness.withPreferences(Topologies.n4c16(CpuSet.EMPTY), Map.of(), "750m", OPTIONS);
    Random random = new Random(seed);
    List<String> pods = new ArrayList<>();
    SortedMap<String, CpuSet> reported = null;
    int next = 0;
    int exclusiveSteps = 0;
    for (int step = 0; step < STEPS; step++) {
      int dice = random.nextInt(100);
      String did;
      if (dice < 45 || pods.isEmpty()) {
        String pod = "p" + next++;
        did = create(h, random, pod);
        if (h.node.cache().pod("sandbox-" + pod).isPresent()) {
          pods.add(pod);
        }
      } else if (dice < 75) {
        String pod = pods.remove(random.nextInt(pods.size()));
        h.delete(pod);
        did = "delete " + pod;
      } else if (dice < 88) {
        String pod = pods.get(random.nextInt(pods.size()));
        List<Container> cs = containersOf(h, pod);
        Container c = cs.get(random.nextInt(cs.size()));
        Container exited = h.node.setState(c.cacheId(), ContainerState.EXITED);
        h.apply(h.policy.release(exited, h.node.cache()));
        h.node.cache().removeContainer(c.cacheId());
        if (cs.size() == 1) {
          h.node.cache().removePod("sandbox-" + pod);
          pods.remove(pod);
        }
        did = "exit " + c.name();
      } else if (dice < 96) {
        h.rebalance();
        did = "rebalance";
      } else {
        h.recreate(Map.of(), "750m", OPTIONS);
        h.apply(h.policy.start(h.node.cache()));
        did = "restart";
      }
      Decisions d = h.last;
      if (d.cpuClasses().isPresent()) {
        reported = d.cpuClasses().get();
      }
      if (reported == null) {
        continue;
      }
      SortedMap<String, CpuSet> fresh =
          CpuClassPlan.of(h.policy.open(h.node.cache()).ledger(), h.node.cache(), NAMES);
      assertEquals(fresh, reported, "seed " + seed + ", step " + step + " (" + did + ")");
      if (reported.keySet().stream().anyMatch(k -> !k.equals("res") && !k.equals("shared"))) {
        exclusiveSteps++;
      }
    }
    assertTrue(exclusiveSteps > STEPS / 4, "exclusive CPUs in only " + exclusiveSteps + " steps");
  }

  /** Creates pod {@code pod} of a random kind; a refused one is removed again. */
  private static String create(Harness h, Random random, String pod) {
    int count = 1 + random.nextInt(2);
    Map<String, String> annotations = new HashMap<>();
    String namespace = "default";
    Resources r;
    int kind = random.nextInt(7);
    switch (kind) {
      case 0, 1, 2 -> {
        long milli = 1000L * (1 + random.nextInt(3));
        r = new Resources(milli, milli, 100 * MB, 100 * MB);
        int how = random.nextInt(4);
        if (how == 1) {
          annotations.put(NRI_CLASS, "turbo");
        } else if (how == 2) {
          annotations.put(CRI_CLASS + "/pod", "fast");
        } else if (how == 3) {
          annotations.put(NRI_CLASS + "/container." + pod + "c0", "slow");
        }
      }
      case 3 -> r = new Resources(1500, 1500, 100 * MB, 100 * MB); // exclusive and shared
      case 4 -> r = new Resources(500, 500, 100 * MB, 100 * MB); // Guaranteed, shared only
      case 5 -> {
        long milli = 100L * (1 + random.nextInt(10));
        r = new Resources(milli, 2 * milli, 100 * MB, 200 * MB);
        if (random.nextInt(4) == 0) {
          namespace = "kube-system";
        }
      }
      default -> r = new Resources(0, 0, 0, 0);
    }
    String did = "create " + pod + " " + count + "x" + r + " " + namespace + " " + annotations;
    try {
      h.create(namespace, pod, count, r, annotations);
    } catch (PolicyException e) {
      for (Container c : containersOf(h, pod)) {
        if (h.node.cache().container(c.cacheId()).isPresent()
            && c.state() != ContainerState.CREATING) {
          Container exited = h.node.setState(c.cacheId(), ContainerState.EXITED);
          h.apply(h.policy.release(exited, h.node.cache()));
        }
        h.node.cache().removeContainer(c.cacheId());
      }
      h.node.cache().removePod("sandbox-" + pod);
      did += " refused";
    }
    return did;
  }

  private static List<Container> containersOf(Harness h, String pod) {
    return h.node.cache().containers().stream()
        .filter(c -> c.podId().equals("sandbox-" + pod))
        .toList();
  }
}
