package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HideHyperthreadsTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  private static final String BALLOON = "balloon.balloons.resource-policy.nri.io";
  private static final String HIDE = "hide-hyperthreads.resource-policy.nri.io";
  private static final String CRI_HIDE = "hide-hyperthreads.cri-resource-manager.intel.com";

  private static final String TYPES =
      """
      BalloonTypes:
        - Name: quad
          MinCPUs: 4
          MaxCPUs: 4
          HideHyperthreads: true
        - Name: plain
          MinCPUs: 4
          MaxCPUs: 4
        - Name: sharing
          MinCPUs: 1
          MaxCPUs: 1
          HideHyperthreads: true
          ShareIdleCPUsInSame: numa
      """;

  private static PolicyHarness harness() throws Exception {
    return new PolicyHarness(N4C16, TYPES, CpuSet.of(0));
  }

  private static CpuSet cores(CpuSet cpus) {
    CpuSet out = CpuSet.EMPTY;
    for (int id : cpus.stream().toArray()) {
      out = out.union(N4C16.coreCpus(id));
    }
    return out;
  }

  @Test
  void theTypeHidesHyperthreadsOfTheBalloonCpus() throws Exception {
    PolicyHarness h = harness();
    h.allocate("pa", "c0", 1000, Map.of(BALLOON, "quad"));
    Balloon quad = h.balloon("quad[0]");
    assertEquals(4, quad.cpus().size());
    CpuSet pinned = h.assignment("pa", "c0").cpus();
    assertEquals(
        new BalloonAssignments(N4C16, h.options, Map.of()).oneThreadPerCore(quad.cpus()), pinned);
    assertEquals(cores(quad.cpus()).size() / 2, pinned.size());
    assertEquals(cores(quad.cpus()), cores(pinned));
  }

  @Test
  void annotationsOverrideTheTypeForThePodOrOneContainer() throws Exception {
    PolicyHarness h = harness();
    Map<String, String> annotations =
        Map.of(BALLOON, "quad", HIDE + "/pod", "false", CRI_HIDE + "/container.c1", "true");
    h.allocate("pa", "c0", 1000, annotations);
    h.allocate("pa", "c1", 1000, annotations);
    Balloon quad = h.balloon("quad[0]");
    assertEquals(quad.cpus(), h.assignment("pa", "c0").cpus());
    assertEquals(2, h.assignment("pa", "c1").cpus().size());
    h.allocate("pb", "c0", 1000, Map.of(BALLOON, "plain", HIDE, "1"));
    assertEquals(2, h.assignment("pb", "c0").cpus().size());
    assertEquals(4, h.balloon("plain[0]").cpus().size());
  }

  @Test
  void sharedIdleCpusAreThinnedWithTheBalloonCpus() throws Exception {
    PolicyHarness h = harness();
    h.allocate("pa", "c0", 500, Map.of(BALLOON, "sharing"));
    Balloon b = h.balloon("sharing[0]");
    CpuSet node =
        N4C16.node(N4C16.cpu(b.cpus().stream().findFirst().orElseThrow()).nodeId()).cpus();
    CpuSet all = node.difference(CpuSet.of(0));
    CpuSet pinned = h.assignment("pa", "c0").cpus();
    assertEquals(cores(all).size() / 2, pinned.size());
    assertEquals(cores(all), cores(pinned));
  }

  @Test
  void aMalformedValueOfAnotherContainerDoesNotBlockDecisions() throws Exception {
    PolicyHarness h = harness();
    h.allocate("pa", "c0", 1000, Map.of(BALLOON, "quad"));
    Pod pa = h.node.cache().pod("sandbox-pa").orElseThrow();
    h.node
        .cache()
        .putPod(
            new Pod(
                pa.id(),
                pa.uid(),
                pa.name(),
                pa.namespace(),
                pa.labels(),
                Map.of(BALLOON, "quad", HIDE, "maybe"),
                pa.cgroupParent(),
                pa.qosClass(),
                pa.resources(),
                pa.ready()));
    h.allocate("pb", "c0", 1000, Map.of(BALLOON, "quad", HIDE, "false"));
    assertEquals(4, h.assignment("pb", "c0").cpus().size());
    assertEquals(2, h.assignment("pa", "c0").cpus().size());
  }

  @Test
  void aMalformedValueIsAnErrorNamingTheAnnotationAndValue() throws Exception {
    PolicyHarness h = harness();
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> h.allocate("pa", "c0", 1000, Map.of(BALLOON, "quad", HIDE, "maybe")));
    assertEquals(
        "annotation hide-hyperthreads.resource-policy.nri.io: invalid value \"maybe\":"
            + " expected true or false",
        e.getMessage());
  }
}
