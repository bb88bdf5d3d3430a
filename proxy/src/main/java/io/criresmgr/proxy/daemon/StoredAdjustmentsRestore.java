package io.criresmgr.proxy.daemon;

import io.criresmgr.cache.StoredAdjustments;
import io.criresmgr.cache.adjustment.AdjustmentException;
import io.criresmgr.cache.adjustment.AdjustmentParser;
import io.criresmgr.cache.adjustment.AdjustmentSet;
import io.criresmgr.proxy.core.AdjustmentStep;
import io.criresmgr.proxy.core.Pipeline;
import io.criresmgr.proxy.core.Section;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At start, after the runtime sync: puts the adjustments the cache stored in force again, so that
 * containers created before the agent pushes get theirs. Whenever that is not possible or not
 * wanted, every container's adjustment is taken back instead, never leaving some containers
 * adjusted and others not: without a stored set (e.g. after {@code --reset-config}), with a stored
 * set that no longer parses or applies, or when no agent can change them ({@code --force-config},
 * no config socket).
 */
final class StoredAdjustmentsRestore {
  private static final Logger LOG = LoggerFactory.getLogger(StoredAdjustmentsRestore.class);

  private StoredAdjustmentsRestore() {}

  /** Restores through {@code pipeline}; {@code fromAgent}: the config socket is served. */
  static void run(Pipeline pipeline, boolean fromAgent) throws InterruptedException {
    StoredAdjustments stored = step(pipeline, s -> s.cache().adjustments().orElse(null));
    if (stored == null) {
      takeBack(pipeline, "");
      return;
    }
    if (!fromAgent) {
      takeBack(pipeline, ": the node agent's adjustments are not used with --force-config");
      return;
    }
    try {
      AdjustmentSet set = AdjustmentParser.parse(stored.nodeName(), stored.json());
      Map<String, String> errors = step(pipeline, s -> AdjustmentStep.apply(s, set, stored));
      if (errors != null && errors.isEmpty()) {
        LOG.info("restored adjustments {}", set.specs().keySet());
        return;
      }
      takeBack(pipeline, ": the stored adjustments no longer apply: " + errors);
    } catch (AdjustmentException e) {
      takeBack(pipeline, ": the stored adjustments do not parse: " + e.getMessage());
    }
  }

  /** Puts no adjustments in force and forgets the stored ones; {@code why} is logged if not "". */
  private static void takeBack(Pipeline pipeline, String why) throws InterruptedException {
    if (!why.isEmpty()) {
      LOG.warn("taking back every container's adjustment{}", why);
    }
    Map<String, String> errors =
        step(pipeline, s -> AdjustmentStep.apply(s, AdjustmentSet.EMPTY, null));
    if (errors != null && !errors.isEmpty()) {
      LOG.warn("cannot take back the adjustments containers carry: {}", errors);
    }
  }

  /** Runs {@code body} in the pipeline; a failure is logged (the daemon starts regardless). */
  private static <T> @Nullable T step(Pipeline pipeline, Function<Section, T> body)
      throws InterruptedException {
    try {
      return pipeline.run(body).get();
    } catch (ExecutionException e) {
      LOG.warn("restoring adjustments failed: {}", String.valueOf(e.getCause()));
      return null;
    }
  }
}
