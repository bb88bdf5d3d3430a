package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.Level;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Burstable containers on {@code n4c16} (2 sockets of 2 NUMA nodes of 4 CPUs and 2 GiB, 750m
 * reserved on cpu0), with requests derived as in production: memory is reserved by request, a pool
 * holding the memory limit is preferred, one without a memory limit prefers the most memory, one
 * whose CPU limit is above its request prefers a pool with at least as many CPUs as the limit, and
 * containers without a CPU limit go to the {@code UnlimitedBurstable} level or the one their {@code
 * unlimited-burstable} annotation names.
 */
class BurstablePlacementTest {
  private static Harness harness(Level level) {
    TopologyAwareOptions options = TopologyAwareOptions.builder().unlimitedBurstable(level).build();
    return Harness.withPreferences(Topologies.n4c16(), Map.of(), "750m", options);
  }

  @Test
  void smallRequestWithABigLimitFitsOnANumaNodeThatCannotHoldTheLimitFree() {
    Harness h = harness(Level.PACKAGE);
    // 1800M of each node's 2 GiB taken: 347M free per node, 1388M in all.
    h.guaranteed("pod0", 4, 1000, 1800 * MB);
    for (int i = 0; i < 4; i++) {
      assertEquals(1, h.mems("pod0c" + i).size(), "pod0c" + i);
    }
    // Reserving the 1500M limit would not fit anywhere; the 100M request fits a NUMA node.
    h.create("default", "pod1", 1, Harness.resources(1000, 2000, 100 * MB, 1500 * MB));
    assertEquals(1, h.mems("pod1c0").size());
    assertEquals(h.mems("pod1c0"), nodes(h.nodes("pod1c0")));
    // The limit stays kubelet's: the policy decides no memory limit.
    assertEquals(0, h.byName("pod1c0").assignment().memoryLimitBytes());
  }

  @Test
  void requestsNotLimitsAddUpOnANumaNode() {
    Harness h = harness(Level.PACKAGE);
    // Limits of 1.5 GiB each, four times a node's memory in all: by request they share one node.
    h.create(
        "default",
        "pod0",
        4,
        Harness.resources(100, 200, 100 * MB, 1536 * MB),
        Map.of("cri-resource-manager.intel.com/affinity", "pod0c0: [pod0c1, pod0c2, pod0c3]"));
    for (int i = 1; i < 4; i++) {
      assertEquals(h.mems("pod0c0"), h.mems("pod0c" + i), "pod0c" + i);
    }
    assertEquals(1, h.mems("pod0c0").size());
  }

  @Test
  void aLimitAboveANumaNodePrefersAPoolThatHoldsIt() {
    Harness h = harness(Level.PACKAGE);
    h.create("default", "pod0", 1, Harness.resources(1000, 2000, 100 * MB, 3L << 30));
    assertEquals(2, h.mems("pod0c0").size());
    assertEquals(1, h.packages("pod0c0").size());
  }

  @ParameterizedTest
  @EnumSource(Level.class)
  void unlimitedBurstableGoesToTheConfiguredLevel(Level level) {
    Harness h = harness(level);
    h.create("default", "pod0", 1, Harness.resources(1000, 0, 100 * MB, 200 * MB));
    CpuSet mems = h.mems("pod0c0");
    switch (level) {
      case SYSTEM -> {
        assertEquals(CpuSet.parse("0-3"), mems);
        assertEquals(CpuSet.parse("1-15"), h.cpus("pod0c0"));
      }
      case PACKAGE, DIE -> { // n4c16 has no die pools: a die is its socket
        assertEquals(2, mems.size());
        assertEquals(1, h.packages("pod0c0").size());
        assertEquals(8 - (h.packages("pod0c0").contains(0) ? 1 : 0), h.cpus("pod0c0").size());
      }
      case NUMA -> {
        assertEquals(1, mems.size());
        assertEquals(mems, nodes(h.nodes("pod0c0")));
      }
    }
  }

  @Test
  void aCpuLimitKeepsABurstableContainerOnANumaNodeWhateverTheLevel() {
    Harness h = harness(Level.SYSTEM);
    h.create("default", "pod0", 1, Harness.resources(1000, 2000, 100 * MB, 200 * MB));
    assertEquals(1, h.mems("pod0c0").size());
    assertEquals(h.mems("pod0c0"), nodes(h.nodes("pod0c0")));
  }

  @Test
  void aCpuLimitAboveANumaNodePrefersASocketThatHoldsIt() {
    Harness h = harness(Level.NUMA);
    // 5 CPUs: no NUMA node of 4 holds the limit, a socket does (nri-plugins' test14-burstable).
    h.create("default", "pod0", 1, Harness.resources(2000, 5000, 100 * MB, 200 * MB));
    assertEquals(CpuSet.parse("2-3"), h.mems("pod0c0"));
    assertEquals(CpuSet.parse("8-15"), h.cpus("pod0c0"));
    // The other socket has more shared CPUs left (7250m to 6000m) and no Burstable container.
    h.create("default", "pod1", 1, Harness.resources(2000, 5000, 100 * MB, 200 * MB));
    assertEquals(CpuSet.parse("0-1"), h.mems("pod1c0"));
    assertEquals(CpuSet.parse("1-7"), h.cpus("pod1c0"));
  }

  @Test
  void aCpuLimitNoPoolHoldsLeavesTheContainerOnANumaNode() {
    Harness h = harness(Level.PACKAGE);
    h.create("default", "pod0", 1, Harness.resources(1000, 32000, 100 * MB, 200 * MB));
    assertEquals(1, h.mems("pod0c0").size());
    assertEquals(h.mems("pod0c0"), nodes(h.nodes("pod0c0")));
  }

  @Test
  void noMemoryLimitPrefersThePoolWithTheMostMemory() {
    Harness h = harness(Level.NUMA);
    // CPU limited, memory not: the root, with all 8 GiB, wins over sockets and NUMA nodes.
    h.create("default", "pod0", 1, Harness.resources(1000, 2000, 200 * MB, 0));
    assertEquals(CpuSet.parse("0-3"), h.mems("pod0c0"));
    assertEquals(CpuSet.parse("1-15"), h.cpus("pod0c0"));
    // Without a memory request nothing is reserved and the rule does not apply.
    h.create("default", "pod1", 1, Harness.resources(1000, 2000, 0, 0));
    assertEquals(1, h.mems("pod1c0").size());
  }

  @Test
  void noMemoryLimitComesBeforeTheUnlimitedBurstableLevel() {
    Harness h = harness(Level.NUMA);
    h.create("default", "pod0", 1, Harness.resources(1000, 0, 200 * MB, 0));
    assertEquals(CpuSet.parse("0-3"), h.mems("pod0c0"));
  }

  @Test
  void theAnnotationOverridesTheOptionPerContainer() {
    Harness h = harness(Level.PACKAGE);
    String nri = "unlimited-burstable.resource-policy.nri.io";
    String cri = "unlimited-burstable.cri-resource-manager.intel.com";
    h.create(
        "default",
        "pod0",
        3,
        Harness.resources(1000, 0, 100 * MB, 200 * MB),
        Map.of(nri + "/container.pod0c0", "numa", cri + "/pod", "system", nri + "/pod", "die"));
    assertEquals(1, h.mems("pod0c0").size()); // its own: numa
    assertEquals(CpuSet.parse("0-3"), h.mems("pod0c1")); // the pod's, cri-resmgr spelling first
    assertEquals(CpuSet.parse("0-3"), h.mems("pod0c2"));
    h.create(
        "default", "pod1", 1, Harness.resources(1000, 0, 100 * MB, 200 * MB), Map.of(nri, "NUMA"));
    assertEquals(1, h.mems("pod1c0").size());
    // A CPU limit leaves the annotation without effect.
    h.create(
        "default",
        "pod2",
        1,
        Harness.resources(1000, 2000, 100 * MB, 200 * MB),
        Map.of(cri, "system"));
    assertEquals(1, h.mems("pod2c0").size());
  }

  @Test
  void aBadAnnotatedLevelIsRefusedNamingItAndTheLevels() {
    Harness h = harness(Level.PACKAGE);
    String key = "unlimited-burstable.resource-policy.nri.io/pod";
    for (Resources r :
        List.of(
            Harness.resources(1000, 0, 100 * MB, 200 * MB),
            Harness.resources(1000, 1000, 100 * MB, 100 * MB))) {
      PolicyException e =
          assertThrows(
              PolicyException.class,
              () -> h.create("default", "pod0", 1, r, Map.of(key, "socket")));
      assertEquals(
          "annotation unlimited-burstable.resource-policy.nri.io/pod: invalid value \"socket\":"
              + " expected system, package, die or numa",
          e.getMessage());
    }
  }

  private static CpuSet nodes(Set<Integer> ids) {
    return CpuSet.of(List.copyOf(ids));
  }
}
