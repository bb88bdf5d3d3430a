package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.PolicyException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Containers created with devices go to pools close to them (docs/policy/topology-aware.md, "Device
 * topology hints"), on n4c16: node k = CPUs 4k..4k+3, sockets {0,1} and {2,3}.
 */
class DeviceHintsPlacementTest {
  private static final Resources TWO_CPUS = new Resources(2000, 2000, 100 * MB, 100 * MB);
  private static final TopologyHint NODE3 =
      new TopologyHint("/dev/vfio/7", CpuSet.parse("12-15"), CpuSet.of(3));
  private static final String STRICT = "strict.topologyhints.resource-policy.nri.io";

  private static Harness n4c16() {
    return Harness.withPreferences(
        Topologies.n4c16(), Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
  }

  @Test
  void aContainerGoesToTheNodeOfItsDevice() {
    Harness h = n4c16();
    h.createWithDevices("gpu", TWO_CPUS, Map.of(), List.of(NODE3));
    assertEquals(2, h.cpus("gpuc0").size());
    assertTrue(CpuSet.parse("12-15").containsAll(h.cpus("gpuc0")), h.cpus("gpuc0").toString());
    assertEquals(CpuSet.of(3), h.mems("gpuc0"));
  }

  @Test
  void aSocketLocalDeviceGetsItsSocket() {
    Harness h = n4c16();
    TopologyHint socket1 = new TopologyHint("/dev/nvme1n1", CpuSet.parse("8-15"), CpuSet.EMPTY);
    h.createWithDevices("db", TWO_CPUS, Map.of(), List.of(socket1));
    assertTrue(CpuSet.parse("8-15").containsAll(h.cpus("dbc0")), h.cpus("dbc0").toString());
    assertEquals(CpuSet.of(2, 3), h.mems("dbc0"));
  }

  @Test
  void aDeviceWithOnlyANumaNodeGetsThatNode() {
    Harness h = n4c16();
    TopologyHint numa2 = new TopologyHint("/dev/accel0", CpuSet.EMPTY, CpuSet.of(2));
    h.createWithDevices("ai", TWO_CPUS, Map.of(), List.of(numa2));
    assertTrue(CpuSet.parse("8-11").containsAll(h.cpus("aic0")), h.cpus("aic0").toString());
    assertEquals(CpuSet.of(2), h.mems("aic0"));
  }

  @Test
  void theAnnotationTurnsHintsOff() {
    Harness plain = n4c16();
    plain.createWithDevices("gpu", TWO_CPUS, Map.of(), List.of());
    Harness off = n4c16();
    off.createWithDevices(
        "gpu",
        TWO_CPUS,
        Map.of("topologyhints.cri-resource-manager.intel.com/container.gpuc0", "false"),
        List.of(NODE3));
    assertEquals(plain.cpus("gpuc0"), off.cpus("gpuc0"));
    assertEquals(plain.mems("gpuc0"), off.mems("gpuc0"));
    assertTrue(!off.mems("gpuc0").contains(3), off.mems("gpuc0").toString());
  }

  @Test
  void strictHintsRefuseWhenTheCloseNodeIsFull() {
    Harness h = n4c16();
    Map<String, String> strict = Map.of(STRICT + "/pod", "true");
    h.createWithDevices("a", TWO_CPUS, strict, List.of(NODE3));
    h.createWithDevices("b", TWO_CPUS, strict, List.of(NODE3));
    assertEquals(CpuSet.parse("12-15"), h.cpus("ac0").union(h.cpus("bc0")));
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> h.createWithDevices("c", TWO_CPUS, strict, List.of(NODE3)));
    assertEquals(
        "topology-aware: cannot allocate 2 exclusive CPUs, memory 95.37M (dram) for c:cc0 with"
            + " strict topology hints (strict.topologyhints.cri-resource-manager.intel.com): no"
            + " pool close to every device has room for it (close: NUMA node #3); devices:"
            + " /dev/vfio/7 (CPUs 12-15, NUMA node 3)",
        e.getMessage());
    h.createWithDevices("d", TWO_CPUS, Map.of(), List.of(NODE3));
    assertEquals(CpuSet.of(2, 3), h.mems("dc0")); // not strict: the device's socket is next best
  }

  @Test
  void strictHintsRefuseDevicesThatNoPoolIsCloseTo() {
    Harness h = n4c16();
    TopologyHint node0 = new TopologyHint("/dev/vfio/1", CpuSet.parse("0-3"), CpuSet.of(0));
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () ->
                h.createWithDevices("x", TWO_CPUS, Map.of(STRICT, "true"), List.of(node0, NODE3)));
    assertTrue(
        e.getMessage()
            .contains(
                "no pool lies close to every device; devices: /dev/vfio/1 (CPUs 0-3, NUMA node"
                    + " 0), /dev/vfio/7 (CPUs 12-15, NUMA node 3)"),
        e.getMessage());
  }

  @Test
  void aMalformedAnnotationIsRefused() {
    Harness h = n4c16();
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> h.createWithDevices("x", TWO_CPUS, Map.of(STRICT, "yes"), List.of(NODE3)));
    assertEquals(
        "annotation strict.topologyhints.resource-policy.nri.io: invalid value \"yes\": expected"
            + " true or false",
        e.getMessage());
  }
}
