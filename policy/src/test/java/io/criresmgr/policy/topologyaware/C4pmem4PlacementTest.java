package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyEvent;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyTimer;
import io.criresmgr.policy.sysfs.MemoryType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The placements the reference e2e suite expects on {@code c4pmem4} (cri-resmgr's {@code
 * test/e2e/policies.test-suite/topology-aware/c4pmem4}): four one-CPU sockets with 2 GiB of DRAM,
 * each with a 4 GiB PMEM node; reserved {@code 750m} (cpu0).
 */
class C4pmem4PlacementTest {
  private static final long MI = 1 << 20;
  private static final long M = 1_000_000;

  private final Harness h = new Harness(Topologies.c4pmem4(), Map.of(), "750m");

  @Test
  void test02MemoryTypesPickPoolsAndNodes() {
    h.requests
        .memory("pod0c0", m -> SimpleRequests.types(m, EnumSet.of(MemoryType.DRAM)))
        .memory("pod0c1", m -> SimpleRequests.types(m, EnumSet.of(MemoryType.PMEM)))
        .memory(
            "pod0c2", m -> SimpleRequests.types(m, EnumSet.of(MemoryType.PMEM, MemoryType.DRAM)));
    h.guaranteed("pod0", 3, 500, 250 * M);
    h.guaranteedNamed("pod0", "pod0c9", 500, 250 * M);
    assertEquals(CpuSet.of(1), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(1), h.mems("pod0c0"));
    assertEquals(CpuSet.of(2), h.cpus("pod0c1"));
    assertEquals(CpuSet.of(4), h.mems("pod0c1"));
    assertEquals(CpuSet.of(3), h.cpus("pod0c2"));
    assertEquals(CpuSet.of(3, 5), h.mems("pod0c2"));
    assertEquals(CpuSet.of(1, 2, 3), h.cpus("pod0c9"));
    assertEquals(CpuSet.range(0, 7), h.mems("pod0c9"));
  }

  @Test
  void test03ColdStartPinsToPmemUntilTheTimerFires() {
    h.clock = Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC);
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.requests.memory(
        "pod0c0",
        m ->
            new MemoryRequest(
                EnumSet.of(MemoryType.DRAM, MemoryType.PMEM),
                m.bytes(),
                Duration.ofSeconds(10),
                false));
    h.guaranteed("pod0", 1, 500, 1L << 30);
    assertEquals(CpuSet.of(1), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(7), h.mems("pod0c0"));
    h.start("pod0c0");
    assertEquals(1, h.last.timers().size());
    PolicyTimer timer = h.last.timers().get(0);
    assertEquals(Duration.ofSeconds(10), timer.delay());
    assertEquals(CpuSet.of(7), h.mems("pod0c0"));
    h.apply(h.policy.handleEvent(timer.event(), h.node.cache()));
    assertEquals(CpuSet.of(1, 7), h.mems("pod0c0"));
    assertEquals(CpuSet.of(1), h.cpus("pod0c0"));
    // a second firing (or a stale timer) changes nothing
    assertEquals(
        io.criresmgr.policy.Decisions.NONE, h.policy.handleEvent(timer.event(), h.node.cache()));
  }

  @Test
  void test03AnExpiredColdStartFinishesAfterARestart() {
    h.clock = Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC);
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.requests.memory(
        "pod0c0",
        m ->
            new MemoryRequest(
                EnumSet.of(MemoryType.DRAM, MemoryType.PMEM),
                m.bytes(),
                Duration.ofSeconds(10),
                false));
    h.guaranteed("pod0", 1, 500, 1L << 30);
    h.start("pod0c0");
    h.clock = Clock.fixed(Instant.ofEpochMilli(1_000_000 + 11_000), ZoneOffset.UTC);
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.rebalance();
    assertEquals(CpuSet.of(1, 7), h.mems("pod0c0"));
  }

  @Test
  void test03ARunningColdStartGetsANewTimerAfterARestart() {
    h.clock = Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC);
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.requests.memory(
        "pod0c0",
        m ->
            new MemoryRequest(
                EnumSet.of(MemoryType.DRAM, MemoryType.PMEM),
                m.bytes(),
                Duration.ofSeconds(10),
                false));
    h.guaranteed("pod0", 1, 500, 1L << 30);
    h.start("pod0c0");
    h.clock = Clock.fixed(Instant.ofEpochMilli(1_000_000 + 4_000), ZoneOffset.UTC);
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.rebalance();
    assertEquals(CpuSet.of(7), h.mems("pod0c0"));
    PolicyEvent event = h.last.timers().get(0).event();
    assertEquals(Duration.ofSeconds(6), h.last.timers().get(0).delay());
    h.apply(h.policy.handleEvent(event, h.node.cache()));
    assertEquals(CpuSet.of(1, 7), h.mems("pod0c0"));
  }

  @Test
  void test05GuaranteeMemoryWithoutMovingWhenEverythingFits() {
    for (int pernode = 2; pernode <= 4; pernode++) {
      String pod = "pod" + (pernode - 2);
      h.guaranteed(pod, 3 * pernode, 750 / pernode, ((long) (0.75 * 5500 / pernode)) * MI);
      for (int i = 0; i < 3 * pernode; i++) {
        assertEquals(2, h.mems(pod + "c" + i).size(), pod + "c" + i);
      }
      h.delete(pod);
    }
    h.guaranteed("pod3", 1, 200, 100 * M);
    assertEquals(2, h.mems("pod3c0").size());
    h.guaranteed("pod4", 1, 1200, 100 * M);
    assertEquals(2, h.mems("pod3c0").size());
    assertEquals(8, h.mems("pod4c0").size());
    h.delete("pod4");
    h.guaranteed("pod5", 2, 200, 5000 * M);
    assertEquals(2, h.mems("pod5c0").size());
    assertEquals(2, h.mems("pod5c1").size());
    assertNotEquals(h.mems("pod5c0"), h.mems("pod5c1"));
    // cri-resmgr slices pod6's exclusive CPU off a socket whose shared CPU pod3c0 or pod5c* uses;
    // here a pool with shared containers keeps a shared CPU, so pod6 fits once pod3 is gone
    PolicyException e =
        assertThrows(PolicyException.class, () -> h.guaranteed("pod6", 1, 1200, 2000 * M));
    assertTrue(e.getMessage().contains("no pool has room"), e.getMessage());
    h.delete("pod3");
    h.guaranteed("pod7", 1, 1200, 2000 * M);
    assertEquals(8, h.mems("pod7c0").size());
    assertEquals(8, h.mems("pod5c0").size());
    assertEquals(8, h.mems("pod5c1").size());
    assertTrue(h.cpus("pod5c0").size() > 0);
    assertTrue(h.cpus("pod5c1").size() > 0);
  }
}
