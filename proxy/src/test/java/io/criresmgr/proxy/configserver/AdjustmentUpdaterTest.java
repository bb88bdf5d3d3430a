package io.criresmgr.proxy.configserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.StoredAdjustments;
import io.criresmgr.cache.adjustment.AdjustmentException;
import io.criresmgr.cache.adjustment.AdjustmentSet;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdjustmentUpdaterTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<AdjustmentSet> applied = new ArrayList<>();
  private final List<StoredAdjustments> stored = new ArrayList<>();
  private Map<String, String> pipelineErrors = Map.of();
  private final AdjustmentUpdater updater =
      new AdjustmentUpdater(
          (set, s) -> {
            applied.add(set);
            stored.add(s);
            return pipelineErrors;
          },
          new AgentMetrics(registry));

  private static final String GROW =
      "{\"grow\":{\"scope\":[{\"nodes\":[\"n*\"]}],"
          + "\"resources\":{\"limits\":{\"memory\":\"1Gi\"}}}}";

  @Test
  void aValidSetGoesToThePipelineAsSentAndCountsAsAccepted() throws Exception {
    assertEquals(Map.of(), updater.apply("n1", GROW));
    assertEquals(List.of("grow"), List.copyOf(applied.get(0).specs().keySet()));
    assertEquals("n1", applied.get(0).nodeName());
    assertEquals(new StoredAdjustments("n1", GROW), stored.get(0));
    assertEquals(0.0, gauge("cri_resmgr.agent.adjustments.rejected"));
    assertEquals(0.0, registry.get("cri_resmgr.agent.adjustment.rejections").counter().count());
  }

  @Test
  void invalidSpecsAreRejectedUnderRequestWithoutReachingThePipeline() throws Exception {
    Map<String, String> errors = updater.apply("n1", "{\"bad\":{\"scope\":[]}}");
    assertEquals(
        Map.of(
            "request",
            "adjustment bad: scope: required, a list of {nodes, containers} with at least one"
                + " entry"),
        errors);
    assertTrue(applied.isEmpty());
    assertEquals(1.0, gauge("cri_resmgr.agent.adjustments.rejected"));
    assertEquals(1.0, registry.get("cri_resmgr.agent.adjustment.rejections").counter().count());
  }

  @Test
  void pipelineErrorsAreAnsweredAndTheGaugeClearsWhenTheNextSetIsAccepted() throws Exception {
    pipelineErrors = Map.of("c1", "conflicting adjustments for ns/p:c: a, b");
    assertEquals(pipelineErrors, updater.apply("n1", GROW));
    assertEquals(1.0, gauge("cri_resmgr.agent.adjustments.rejected"));
    pipelineErrors = Map.of();
    assertEquals(Map.of(), updater.apply("n1", GROW));
    assertEquals(0.0, gauge("cri_resmgr.agent.adjustments.rejected"));
    assertEquals(1.0, registry.get("cri_resmgr.agent.adjustment.rejections").counter().count());
  }

  @Test
  void undecodableJsonThrowsAndIsCounted() {
    AdjustmentException e =
        assertThrows(AdjustmentException.class, () -> updater.apply("n1", "not json"));
    assertTrue(e.undecodable());
    assertTrue(e.getMessage().startsWith("adjustments: not JSON: "), e.getMessage());
    assertTrue(applied.isEmpty());
    assertEquals(1.0, registry.get("cri_resmgr.agent.adjustment.rejections").counter().count());
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }
}
