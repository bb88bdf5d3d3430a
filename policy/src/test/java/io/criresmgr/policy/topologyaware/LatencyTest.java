package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.Resources;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Allocation and release latency with 500 containers on a 448-CPU, 8-node machine (DESIGN §9
 * target: allocate p99 below 1 ms). The bound asserted is looser, as unit tests share the machine;
 * the measured percentiles are printed.
 */
class LatencyTest {
  private static final int WARMUP = 300;
  private static final int SAMPLES = 1000;

  @Test
  void allocateAndReleaseStayFastAt500Containers() {
    Harness h =
        Harness.withPreferences(Topologies.large(), Map.of(), "2", TopologyAwareOptions.DEFAULTS);
    for (int i = 0; i < 50; i++) {
      h.guaranteed("g" + i, 2, 2000, 100 * MB); // 100 containers, 200 exclusive CPUs
    }
    for (int i = 0; i < 50; i++) {
      h.create("default", "b" + i, 4, new Resources(250, 1000, 50 * MB, 100 * MB));
    }
    for (int i = 0; i < 50; i++) {
      h.create("default", "e" + i, 4, Resources.NONE);
    }
    long[] allocate = new long[SAMPLES];
    long[] release = new long[SAMPLES];
    Pod pod = h.node.cache().pod("sandbox-g0").orElseThrow();
    for (int i = 0; i < WARMUP + SAMPLES; i++) {
      Resources r = i % 2 == 0 ? new Resources(1000, 1000, 100 * MB, 100 * MB) : Resources.NONE;
      Container c = h.container(pod, "x" + i, r, false);
      h.node.cache().putContainer(c);
      long t0 = System.nanoTime();
      var d = h.policy.allocate(c, h.node.cache());
      long t1 = System.nanoTime();
      h.apply(d);
      Container exited = h.node.setState(c.cacheId(), ContainerState.EXITED);
      long t2 = System.nanoTime();
      var r2 = h.policy.release(exited, h.node.cache());
      long t3 = System.nanoTime();
      h.apply(r2);
      h.node.cache().removeContainer(c.cacheId());
      if (i >= WARMUP) {
        allocate[i - WARMUP] = t1 - t0;
        release[i - WARMUP] = t3 - t2;
      }
    }
    Arrays.sort(allocate);
    Arrays.sort(release);
    System.out.printf(
        "topology-aware, 500 containers, 448 CPUs: allocate p50 %d us, p99 %d us;"
            + " release p50 %d us, p99 %d us%n",
        allocate[SAMPLES / 2] / 1000,
        allocate[SAMPLES * 99 / 100] / 1000,
        release[SAMPLES / 2] / 1000,
        release[SAMPLES * 99 / 100] / 1000);
    assertTrue(allocate[SAMPLES / 2] < 5_000_000, "allocate p50 " + allocate[SAMPLES / 2]);
  }
}
