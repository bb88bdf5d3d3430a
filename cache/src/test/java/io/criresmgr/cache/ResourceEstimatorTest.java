package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResourceEstimatorTest {
  @ParameterizedTest(name = "{0} shares={1} quota={2} period={3} mem={4}")
  @CsvSource({
    // qos,      shares, quota,  period, memory,     cpuReq, cpuLim, memReq,     memLim
    "GUARANTEED,  1024,  100000, 100000, 1073741824, 1000,   1000,   1073741824, 1073741824",
    "GUARANTEED,  512,   50000,  100000, 0,          500,    500,    0,          0",
    "GUARANTEED,  2,     0,      0,      0,          0,      0,      0,          0",
    "BURSTABLE,   102,   50000,  100000, 268435456,  100,    500,    0,          268435456",
    "BURSTABLE,   256,   0,      0,      0,          250,    0,      0,          0",
    "BURSTABLE,   256,   -1,     100000, 0,          250,    0,      0,          0",
    "BURSTABLE,   256,   50000,  0,      0,          250,    0,      0,          0",
    "BURSTABLE,   1,     333,    1000,   0,          1,      333,    0,          0",
    "BURSTABLE,   2,     1,      3,      0,          0,      333,    0,          0",
    "BURSTABLE,   1535,  1,      2,      0,          1499,   500,    0,          0",
    "BURSTABLE,   1537,  150000, 100000, 0,          1501,   1500,   0,          0",
    "BEST_EFFORT, 2,     0,      0,      0,          0,      0,      0,          0",
    "BEST_EFFORT, 0,     0,      0,      0,          0,      0,      0,          0",
    "BEST_EFFORT, -5,    0,      0,      -1,         0,      0,      0,          0",
  })
  void estimatesRequestsAndLimits(
      QosClass qos,
      long shares,
      long quota,
      long period,
      long memory,
      long cpuRequest,
      long cpuLimit,
      long memoryRequest,
      long memoryLimit) {
    LinuxResources requested = new LinuxResources(period, quota, shares, memory, "", "", Map.of());
    assertEquals(
        new Resources(cpuRequest, cpuLimit, memoryRequest, memoryLimit),
        ResourceEstimator.estimate(requested, qos));
  }
}
