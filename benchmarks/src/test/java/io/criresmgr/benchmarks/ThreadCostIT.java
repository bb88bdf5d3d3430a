package io.criresmgr.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The smoke mode of {@link ThreadCostMain}: a few operations, so the tool cannot rot. */
class ThreadCostIT {
  @Test
  void reportsThePipelineThreadOfTheInterceptedRoute() throws Exception {
    Map<String, ThreadCostMain.Cost> costs = ThreadCostMain.measure(Route.CRI_RESMGR, 5, 20);
    assertTrue(costs.containsKey("cri-pipeline"), costs.toString());
    assertTrue(costs.get("TOTAL").bytes() > 0, costs.toString());
  }
}
