package io.criresmgr.proxy.configserver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

class AgentMetricsTest {
  @Test
  void rejectionsAreScrapedUnderTheDocumentedNames() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AgentMetrics metrics = new AgentMetrics(registry);
    metrics.configRejected();
    metrics.configRejected();
    metrics.adjustmentsRejected();
    metrics.adjustmentsAccepted();
    String text = registry.scrape();
    assertTrue(text.contains("\ncri_resmgr_agent_config_rejections_total 2.0\n"), text);
    assertTrue(text.contains("\ncri_resmgr_agent_config_rejected 1.0\n"), text);
    assertTrue(text.contains("\ncri_resmgr_agent_adjustment_rejections_total 1.0\n"), text);
    assertTrue(text.contains("\ncri_resmgr_agent_adjustments_rejected 0.0\n"), text);
    metrics.configAccepted();
    assertTrue(registry.scrape().contains("\ncri_resmgr_agent_config_rejected 0.0\n"));
  }
}
