package io.criresmgr.proxy.daemon;

import io.criresmgr.proxy.core.Pipeline;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Asks the policy to rebalance every {@code --rebalance-interval}, in the pipeline. */
final class Rebalancer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Rebalancer.class);

  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "rebalance-timer");
            t.setDaemon(true);
            return t;
          });

  Rebalancer(Pipeline pipeline, Duration interval) {
    long millis = interval.toMillis();
    // The task logs its own failures; close() ends it with the timer.
    var unused =
        timer.scheduleWithFixedDelay(
            () ->
                pipeline
                    .run(
                        s -> {
                          s.decide(p -> p.rebalance(s.cache()), Set.of());
                          return null;
                        })
                    .exceptionally(
                        e -> {
                          LOG.warn("rebalancing failed: {}", e.getMessage());
                          return null;
                        })
                    .join(),
            millis,
            millis,
            TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
