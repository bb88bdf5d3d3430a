package io.criresmgr.proxy.configserver;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the node agent pushed and how it went, for operators' alerts: {@code
 * cri_resmgr_agent_config_rejections_total} and {@code cri_resmgr_agent_config_rejected} (1 while
 * the last pushed configuration stands rejected), and the same pair for adjustments.
 */
public final class AgentMetrics {
  private final Counter configRejections;
  private final AtomicInteger configRejected = new AtomicInteger();
  private final Counter adjustmentRejections;
  private final AtomicInteger adjustmentsRejected = new AtomicInteger();

  /** Registers the meters in {@code registry}. */
  public AgentMetrics(MeterRegistry registry) {
    configRejections =
        Counter.builder("cri_resmgr.agent.config.rejections")
            .description("Configurations from the node agent that cri-resmgr rejected")
            .register(registry);
    Gauge.builder("cri_resmgr.agent.config.rejected", configRejected, AtomicInteger::get)
        .description("1 while the last configuration from the node agent stands rejected")
        .register(registry);
    adjustmentRejections =
        Counter.builder("cri_resmgr.agent.adjustment.rejections")
            .description("Adjustment sets from the node agent that cri-resmgr rejected")
            .register(registry);
    Gauge.builder("cri_resmgr.agent.adjustments.rejected", adjustmentsRejected, AtomicInteger::get)
        .description("1 while the last adjustment set from the node agent stands rejected")
        .register(registry);
  }

  /** Metrics that go nowhere (tests, or no registry). */
  public static AgentMetrics unregistered() {
    return new AgentMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
  }

  void configAccepted() {
    configRejected.set(0);
  }

  void configRejected() {
    configRejections.increment();
    configRejected.set(1);
  }

  void adjustmentsAccepted() {
    adjustmentsRejected.set(0);
  }

  void adjustmentsRejected() {
    adjustmentRejections.increment();
    adjustmentsRejected.set(1);
  }
}
