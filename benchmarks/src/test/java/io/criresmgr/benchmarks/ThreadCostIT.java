package io.criresmgr.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The smoke mode of {@link ThreadCostMain}, {@link PollCostMain} and {@link PodStartTimelineMain}:
 * a few operations, so the tools cannot rot.
 */
class ThreadCostIT {
  @Test
  void reportsThePipelineThreadOfTheInterceptedRoute() throws Exception {
    Map<String, ThreadCostMain.Cost> costs = ThreadCostMain.measure(Route.CRI_RESMGR, 5, 20);
    assertTrue(costs.containsKey("cri-pipeline"), costs.toString());
    assertTrue(costs.get("TOTAL").bytes() > 0, costs.toString());
  }

  @Test
  void reportsTheRelayThreadsOfAPollingRound() throws Exception {
    Map<String, ThreadCostMain.Cost> costs = PollCostMain.measure(Route.CRI_RESMGR, 3, 5, 2, 5);
    assertTrue(costs.containsKey("relay-io"), costs.toString());
    assertTrue(costs.get("TOTAL").bytes() > 0, costs.toString());
  }

  @Test
  void timesEachCallOfABurstOfPodStartsThroughTheDaemon() throws Exception {
    PodStartTimelineMain.Timeline t =
        PodStartTimelineMain.measure(Route.CRI_RESMGR, 2, 1, 2, Duration.ofMillis(20));
    assertEquals(3, t.latencies().size());
    for (double[] call : t.latencies()) {
      assertEquals(2, call.length);
      assertTrue(call[0] >= 20 && call[0] <= call[1], Arrays.toString(call)); // the latency, sorted
    }
    assertTrue(t.burstMillis() >= 60, "three calls of 20 ms: " + t.burstMillis());
    assertTrue(t.threads().containsKey("cri-pipeline"), t.threads().toString());
  }
}
