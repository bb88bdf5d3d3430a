package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.policy.PolicyMetrics.Gauge;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyGaugesTest {
  @Test
  void rendersPrometheusTextGroupedByNameWithSortedEscapedLabels() {
    String text =
        PolicyGauges.render(
            List.of(
                new Gauge("pool_cpus", "CPUs per pool", Map.of("pool", "shared", "a", "x\"y"), 3),
                new Gauge("pool_cpus", "CPUs per pool", Map.of("pool", "reserved"), 1),
                new Gauge("exclusive", "exclusive CPUs", Map.of(), 2)));
    assertEquals(
        """
        # HELP pool_cpus CPUs per pool
        # TYPE pool_cpus gauge
        pool_cpus{a="x\\"y",pool="shared"} 3.0
        pool_cpus{pool="reserved"} 1.0
        # HELP exclusive exclusive CPUs
        # TYPE exclusive gauge
        exclusive 2.0
        """,
        text);
  }

  @Test
  void noGaugesNoText() {
    assertEquals("", PolicyGauges.render(List.of()));
  }
}
