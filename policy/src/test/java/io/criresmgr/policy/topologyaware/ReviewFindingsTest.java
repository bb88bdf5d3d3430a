package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Regression tests of the review of issue 4. */
class ReviewFindingsTest {
  private static final long M = 1_000_000;

  @Test
  void anUnisolatedNodeDoesNotSayIsolatedWhenIsolationWasOnlyPreferred() {
    Harness h =
        new Harness(Topologies.grid(1, 1, 1, 2, 1, 2L << 30, CpuSet.EMPTY), Map.of(), "cpuset:0");
    PolicyException e =
        assertThrows(PolicyException.class, () -> h.guaranteed("pod0", 1, 1000, 100 * M));
    assertFalse(e.getMessage().contains("isolated exclusive"), e.getMessage());
  }

  @Test
  void aReallocationThatBreaksTheMemoryGuaranteeLeavesNoGrantBehind() {
    // root socket #0 with NUMA nodes 0 and 1 (CPU 0 and CPU 1, 2 GiB each)
    Harness h = new Harness(Topologies.grid(1, 1, 2, 1, 1, 2L << 30, CpuSet.EMPTY), Map.of(), "0");
    h.guaranteed("pod0", 1, 500, 1536L << 20);
    h.create("default", "pod1", 1, new Resources(900, 1000, 100 * M, 100 * M));
    assertEquals(CpuSet.of(0), h.mems("pod0c0"));
    assertEquals(CpuSet.of(1), h.cpus("pod1c0"));
    // pod1c0 now asks for 3 GiB: only the root holds it, but then pod0c0 cannot move up
    h.requests.memory(
        "pod1c0", m -> new MemoryRequest(m.types(), 3L << 30, m.coldStart(), m.preserve()));
    h.rebalance();
    assertEquals(CpuSet.of(1), h.cpus("pod1c0"));
    assertEquals(CpuSet.of(1), h.mems("pod1c0"));
    assertEquals(
        h.policy.tree().pools().stream()
            .filter(p -> p.name().equals("NUMA node #1"))
            .findFirst()
            .orElseThrow()
            .id(),
        h.policy
            .open(h.node.cache())
            .ledger()
            .grant(h.byName("pod1c0").cacheId())
            .orElseThrow()
            .pool());
  }
}
