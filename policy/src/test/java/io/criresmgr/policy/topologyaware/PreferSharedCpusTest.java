package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.SharedCpus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code PreferSharedCPUs} through the policy on n4c16 (4 CPUs per NUMA node, CPU 0 reserved): a
 * shared container gets a NUMA node's shared CPUs (3 or 4), an exclusive one exactly its CPUs.
 */
class PreferSharedCpusTest {
  private static final String NRI_SHARED = "prefer-shared-cpus.resource-policy.nri.io";
  private static final String SHARED = "prefer-shared-cpus.cri-resource-manager.intel.com/pod";
  private static final String ISOLATED = "prefer-isolated-cpus.cri-resource-manager.intel.com/pod";

  private static Harness n4c16(SharedCpus shared, CpuSet isolated) {
    TopologyAwareOptions options = TopologyAwareOptions.builder().preferSharedCpus(shared).build();
    return Harness.withPreferences(Topologies.n4c16(isolated), Map.of(), "750m", options);
  }

  private static Resources guaranteed(long milli) {
    return new Resources(milli, milli, 100 * MB, 100 * MB);
  }

  private static boolean exclusive(Harness h, String name, String... others) {
    for (String o : others) {
      if (h.cpus(name).intersects(h.cpus(o))) {
        return false;
      }
    }
    return true;
  }

  @Test
  void trueSharesWholeCpusUnlessAnnotatedFalse() {
    Harness h = n4c16(SharedCpus.ALL, CpuSet.EMPTY);
    h.create("default", "pod0", 1, guaranteed(2000));
    assertTrue(h.cpus("pod0c0").size() >= 3, "pod0c0 shares: " + h.cpus("pod0c0"));
    h.create(
        "default", "pod1", 2, guaranteed(1000), Map.of(NRI_SHARED + "/container.pod1c1", "false"));
    assertTrue(h.cpus("pod1c0").size() >= 3, "pod1c0 shares: " + h.cpus("pod1c0"));
    assertEquals(1, h.cpus("pod1c1").size());
    assertTrue(exclusive(h, "pod1c1", "pod0c0", "pod1c0"));
    h.create("default", "pod2", 1, guaranteed(2000), Map.of(SHARED, "false"));
    assertEquals(2, h.cpus("pod2c0").size());
    assertTrue(exclusive(h, "pod2c0", "pod0c0", "pod1c0", "pod1c1"));
  }

  @Test
  void falseWithAnAnnotationTrueShares() {
    Harness h = n4c16(SharedCpus.NONE, CpuSet.EMPTY);
    h.create("default", "pod0", 1, guaranteed(2000));
    assertEquals(2, h.cpus("pod0c0").size());
    h.create("default", "pod1", 1, guaranteed(2000), Map.of(SHARED, "true"));
    assertTrue(h.cpus("pod1c0").size() >= 3, "pod1c0 shares: " + h.cpus("pod1c0"));
  }

  @Test
  void fractionalKeepsCriResmgrPlacement() {
    Harness h = n4c16(SharedCpus.FRACTIONAL, CpuSet.EMPTY);
    h.create("default", "pod0", 1, guaranteed(2000));
    assertEquals(2, h.cpus("pod0c0").size());
    h.create("default", "pod1", 1, guaranteed(1500));
    assertTrue(exclusive(h, "pod0c0", "pod1c0"));
    assertTrue(h.cpus("pod1c0").size() >= 2);
    h.create("default", "pod2", 1, guaranteed(1000));
    assertEquals(1, h.cpus("pod2c0").size());
  }

  @Test
  void anIsolatedAnnotationOptsOutOfTrue() {
    CpuSet isolated = CpuSet.of(8, 9);
    Harness h = n4c16(SharedCpus.ALL, isolated);
    h.create("default", "pod0", 1, guaranteed(1000));
    assertTrue(h.cpus("pod0c0").size() >= 2, "pod0c0 shares: " + h.cpus("pod0c0"));
    assertFalse(h.cpus("pod0c0").intersects(isolated));
    h.create("default", "pod1", 1, guaranteed(1000), Map.of(ISOLATED, "true"));
    assertEquals(1, h.cpus("pod1c0").size());
    assertTrue(isolated.containsAll(h.cpus("pod1c0")), "pod1c0: " + h.cpus("pod1c0"));
  }
}
