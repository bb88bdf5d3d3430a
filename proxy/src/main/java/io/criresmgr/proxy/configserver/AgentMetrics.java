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
  private final Outcomes configs;
  private final Outcomes adjustments;

  /** Registers the meters in {@code registry}. */
  public AgentMetrics(MeterRegistry registry) {
    configs = new Outcomes(registry, "config.rejections", "config.rejected", "Configurations");
    adjustments =
        new Outcomes(registry, "adjustment.rejections", "adjustments.rejected", "Adjustment sets");
  }

  void configAccepted() {
    configs.accepted();
  }

  void configRejected() {
    configs.rejected();
  }

  void adjustmentsAccepted() {
    adjustments.accepted();
  }

  void adjustmentsRejected() {
    adjustments.rejected();
  }

  /** A rejection counter and a "last one stands rejected" gauge. */
  private static final class Outcomes {
    private final Counter rejections;
    private final AtomicInteger rejected = new AtomicInteger();

    Outcomes(MeterRegistry registry, String counter, String gauge, String what) {
      rejections =
          Counter.builder("cri_resmgr.agent." + counter)
              .description(what + " from the node agent that cri-resmgr rejected")
              .register(registry);
      Gauge.builder("cri_resmgr.agent." + gauge, rejected, AtomicInteger::get)
          .description("1 while the last of the " + what + " from the node agent stands rejected")
          .register(registry);
    }

    void accepted() {
      rejected.set(0);
    }

    void rejected() {
      rejections.increment();
      rejected.set(1);
    }
  }
}
