package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.ResourceOverride;
import io.criresmgr.cache.ResourceOverride.Amounts;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Topology-aware places by {@link Container#adjustedResources()}, with production preferences. */
class AdjustedPlacementTest {
  private final Harness h =
      Harness.withPreferences(Topologies.n4c16(), Map.of(), "750m", TopologyAwareOptions.DEFAULTS);

  private static Adjustment cpu(long request, long limit) {
    return new Adjustment(
        "more-cpu",
        Optional.of(
            new ResourceOverride(Optional.of(new Amounts(request, limit)), Optional.empty())),
        "",
        "",
        OptionalLong.empty());
  }

  /**
   * Creates pod {@code pod} (QoS class of {@code r}) with container {@code name} and allocates it.
   */
  private void create(String pod, String name, Resources r, Adjustment a) {
    Pod p =
        new Pod(
            "sandbox-" + pod,
            "uid-" + pod,
            pod,
            "default",
            Map.of(),
            Map.of(),
            "/kubepods/pod" + pod,
            Harness.qos(r),
            PodResources.NONE,
            true);
    h.node.cache().putPod(p);
    Container c = h.container(p, name, r, false).withAdjustment(a);
    h.node.cache().putContainer(c);
    h.apply(h.policy.allocate(c, h.node.cache()));
    h.node.setState(c.cacheId(), ContainerState.RUNNING);
  }

  @Test
  void aFractionalGuaranteedContainerSharesUnlessAdjustedToWholeCpus() {
    Resources half = new Resources(500, 500, 100 * MB, 100 * MB);
    create("p0", "plain", half, Adjustment.NONE);
    create("p1", "adjusted", half, cpu(2000, 2000));
    // Without the adjustment: the shared CPUs of a NUMA node.
    assertEquals(4, h.cpus("plain").size());
    // With it: two CPUs of its own, which no shared container uses.
    CpuSet own = h.cpus("adjusted");
    assertEquals(2, own.size());
    create("p2", "later", half, Adjustment.NONE);
    assertTrue(own.intersection(h.cpus("later")).isEmpty(), own + " and " + h.cpus("later"));
    assertTrue(own.intersection(h.cpus("plain")).isEmpty(), own + " and " + h.cpus("plain"));
  }

  @Test
  void theAdjustmentDoesNotChangeTheQosClass() {
    // As in cri-resmgr, the QoS class stays the pod's: a Burstable container adjusted to
    // request = limit = 2 CPUs still shares, by its adjusted request.
    Resources burstable = new Resources(500, 0, 100 * MB, 0);
    create("p0", "adjusted", burstable, cpu(2000, 2000));
    assertEquals(QosClass.BURSTABLE, h.byName("adjusted").qosClass());
    assertTrue(h.cpus("adjusted").size() > 2, h.cpus("adjusted").toString());
  }

  @Test
  void preferencesReadTheAdjustedMemoryAndCpuLimit() {
    Pod pod = Workloads.pod("default", QosClass.BURSTABLE, Map.of());
    Container c = Workloads.container(pod, "c0", new Resources(500, 1000, 100 * MB, 200 * MB));
    Adjustment memory =
        new Adjustment(
            "more-memory",
            Optional.of(
                new ResourceOverride(
                    Optional.empty(), Optional.of(new Amounts(1000 * MB, 2000 * MB)))),
            "",
            "",
            OptionalLong.empty());
    Set<MemoryType> dram = EnumSet.of(MemoryType.DRAM);
    TopologyAwareOptions o = TopologyAwareOptions.DEFAULTS;
    assertEquals(100 * MB, Preferences.memory(c, pod, o, dram).bytes());
    assertEquals(200 * MB, Preferences.memory(c, pod, o, dram).limitBytes());
    assertEquals(1000 * MB, Preferences.memory(c.withAdjustment(memory), pod, o, dram).bytes());
    assertEquals(
        2000 * MB, Preferences.memory(c.withAdjustment(memory), pod, o, dram).limitBytes());
    assertEquals(1000, Preferences.cpu(c, pod, o).limitMilli());
    assertEquals(3000, Preferences.cpu(c.withAdjustment(cpu(1500, 3000)), pod, o).limitMilli());
    assertEquals(1500, Preferences.cpu(c.withAdjustment(cpu(1500, 3000)), pod, o).fractionMilli());
  }
}
