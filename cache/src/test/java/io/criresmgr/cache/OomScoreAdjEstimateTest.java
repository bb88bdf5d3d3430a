package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The memory request of a Burstable container estimated back from kubelet's oom_score_adj. */
class OomScoreAdjEstimateTest {
  private static final long GIB = 1L << 30;

  /** Kubelet's {@code GetContainerOOMScoreAdjust} for a Burstable container (no critical pod). */
  static long kubelet(long memoryRequest, long memoryCapacity) {
    long adj = 1000 - Math.multiplyExact(1000L, memoryRequest) / memoryCapacity;
    if (adj < 3) {
      return 3;
    }
    return adj == 1000 ? 999 : adj;
  }

  private static final long[] CAPACITIES = {
    1000, 4096, 999_999, 2 * GIB, 16 * GIB - 4096, 64 * GIB, 63_999_999_998L, 1536 * GIB, 12L << 40
  };

  @Test
  void roundTripsKubeletsFormulaToTheSmallestRequestOfEachAdjustment() {
    SplittableRandom random = new SplittableRandom(18_11);
    for (long capacity : CAPACITIES) {
      for (int i = 0; i < 20_000; i++) {
        long request = random.nextLong(2 * capacity);
        long adj = kubelet(request, capacity);
        long estimate = ResourceEstimator.memoryRequestFromOomScoreAdj(adj, capacity, 0);
        if (adj == 999) {
          assertEquals(0, estimate, "999 tells nothing, capacity " + capacity);
          continue;
        }
        String what = "request " + request + ", capacity " + capacity + ", adj " + adj;
        assertEquals(adj, kubelet(estimate, capacity), what);
        assertTrue(estimate <= request, what);
        assertTrue(estimate == 0 || kubelet(estimate - 1, capacity) != adj, what);
      }
    }
  }

  @Test
  void everyInformativeAdjustmentMapsToTheFirstRequestKubeletGivesItTo() {
    for (long capacity : CAPACITIES) {
      for (long adj = 3; adj <= 998; adj++) {
        long estimate = ResourceEstimator.memoryRequestFromOomScoreAdj(adj, capacity, 0);
        String what = "capacity " + capacity + ", adj " + adj;
        assertEquals(adj, kubelet(estimate, capacity), what);
        assertEquals(adj + 1, kubelet(estimate - 1, capacity), what);
      }
    }
  }

  @ParameterizedTest(name = "request {0} on 64 GiB")
  @CsvSource({
    // request,    adj, estimate
    "4294967296,   938, 4260607558", // 4 GiB: 1000 - 62; 62/1000 of 64 GiB rounded up
    "34359738368,  500, 34359738368", // half the node: exact
    "68719476736,  3,   68513318306", // all of it: clamped to 3, 997/1000 of 64 GiB
    "137438953472, 3,   68513318306", // more than the node: the clamp again
    "137438954,    998, 137438954", // 2/1000 of the node, rounded up
  })
  void examples(long request, long adj, long estimate) {
    assertEquals(adj, kubelet(request, 64 * GIB));
    assertEquals(estimate, ResourceEstimator.memoryRequestFromOomScoreAdj(adj, 64 * GIB, 0));
  }

  @ParameterizedTest(name = "oom_score_adj {0}")
  @ValueSource(longs = {-1000, -999, -998, -997, -1, 0, 1, 2, 999, 1000, 1001})
  void adjustmentsThatTellNothingGiveNoEstimate(long adj) {
    assertEquals(0, ResourceEstimator.memoryRequestFromOomScoreAdj(adj, 64 * GIB, 0));
  }

  @Test
  void anUnknownCapacityGivesNoEstimate() {
    assertEquals(0, ResourceEstimator.memoryRequestFromOomScoreAdj(500, 0, 0));
    assertEquals(0, ResourceEstimator.memoryRequestFromOomScoreAdj(500, -1, 0));
  }

  @Test
  void neverAboveTheMemoryLimit() {
    assertEquals(GIB, ResourceEstimator.memoryRequestFromOomScoreAdj(500, 64 * GIB, GIB));
    assertEquals(32 * GIB, ResourceEstimator.memoryRequestFromOomScoreAdj(500, 64 * GIB, 32 * GIB));
    assertEquals(
        32 * GIB, ResourceEstimator.memoryRequestFromOomScoreAdj(500, 64 * GIB, 32 * GIB + 1));
  }

  @Test
  void onlyBurstableContainersGetTheEstimate() {
    LinuxResources requested = new LinuxResources(100_000, 200_000, 512, 8 * GIB, "", "", Map.of());
    long adj = kubelet(4 * GIB, 64 * GIB);
    assertEquals(
        new Resources(500, 2000, 4260607558L, 8 * GIB),
        ResourceEstimator.estimate(requested, QosClass.BURSTABLE, adj, 64 * GIB));
    assertEquals(
        new Resources(500, 2000, 0, 8 * GIB),
        ResourceEstimator.estimate(requested, QosClass.BURSTABLE, 999, 64 * GIB));
    assertEquals(
        new Resources(500, 2000, 0, 8 * GIB),
        ResourceEstimator.estimate(requested, QosClass.BURSTABLE, adj, 0));
    assertEquals(
        ResourceEstimator.estimate(requested, QosClass.GUARANTEED),
        ResourceEstimator.estimate(requested, QosClass.GUARANTEED, -997, 64 * GIB));
    assertEquals(
        ResourceEstimator.estimate(requested, QosClass.BEST_EFFORT),
        ResourceEstimator.estimate(requested, QosClass.BEST_EFFORT, adj, 64 * GIB));
  }
}
