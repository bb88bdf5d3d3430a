package io.criresmgr.proxy.configserver;

import io.criresmgr.cache.StoredAdjustments;
import io.criresmgr.cache.adjustment.AdjustmentException;
import io.criresmgr.cache.adjustment.AdjustmentParser;
import io.criresmgr.cache.adjustment.AdjustmentSet;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies adjustments pushed by the node agent: parses and checks every spec (an invalid one
 * rejects the set under the reply key {@code request}), then puts the set in force through the
 * pipeline, which rejects conflicts per container. A rejected set leaves the previous one in force.
 */
public final class AdjustmentUpdater {
  /** The reply key of errors in the specs themselves. */
  public static final String REQUEST_KEY = "request";

  private static final Logger LOG = LoggerFactory.getLogger(AdjustmentUpdater.class);

  private final BiFunction<AdjustmentSet, StoredAdjustments, Map<String, String>> apply;
  private final AgentMetrics metrics;

  /**
   * Applies parsed sets with {@code apply} (returning the errors by container id; empty: in force)
   * and counts outcomes in {@code metrics}.
   */
  public AdjustmentUpdater(
      BiFunction<AdjustmentSet, StoredAdjustments, Map<String, String>> apply,
      AgentMetrics metrics) {
    this.apply = Objects.requireNonNull(apply, "apply");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Applies {@code json} (Adjustment name to spec) for node {@code nodeName}; returns the errors.
   *
   * @throws AdjustmentException if {@code json} is not a JSON object (nothing changes)
   */
  public synchronized Map<String, String> apply(String nodeName, String json)
      throws AdjustmentException {
    Map<String, String> errors;
    try {
      AdjustmentSet set = AdjustmentParser.parse(nodeName, json);
      errors = apply.apply(set, new StoredAdjustments(nodeName, json));
      if (errors.isEmpty()) {
        LOG.info("adjustments in force: {}", set.specs().keySet());
      }
    } catch (AdjustmentException e) {
      if (e.undecodable()) {
        metrics.adjustmentsRejected();
        throw e;
      }
      errors = Map.of(REQUEST_KEY, e.getMessage());
    }
    if (errors.isEmpty()) {
      metrics.adjustmentsAccepted();
    } else {
      metrics.adjustmentsRejected();
      LOG.warn("rejected the adjustments from the node agent: {}", errors);
    }
    return errors;
  }
}
