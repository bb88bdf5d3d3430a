package io.criresmgr.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The smoke mode of {@link PolicyCostMain}: a few operations, so the tool cannot rot. */
class PolicyCostIT {
  @Test
  void reportsTheCallingThreadOfAnExclusiveGrant() throws Exception {
    Map<String, ThreadCostMain.Cost> costs = new TreeMap<>();
    PolicyCostMain.measure(PolicyCostMain.bench("topology-aware", "EXCLUSIVE", 20), 5, 20, costs);
    assertTrue(costs.containsKey("main"), costs.toString());
    assertTrue(costs.get("TOTAL").bytes() > 0, costs.toString());
  }
}
