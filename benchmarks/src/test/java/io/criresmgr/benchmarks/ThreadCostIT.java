package io.criresmgr.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The smoke mode of {@link ThreadCostMain} and {@link PollCostMain}: a few operations, so the tools
 * cannot rot.
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
}
