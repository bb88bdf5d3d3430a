package io.criresmgr.proxy.core;

import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyTimer;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the timers policies ask for ({@link io.criresmgr.policy.Decisions#timers()}): when one
 * fires, its event goes to the active policy in a pipeline step, like any other event. The waiting
 * happens on a timer thread, never on the pipeline thread.
 */
final class PolicyTimers implements Consumer<PolicyTimer>, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PolicyTimers.class);

  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "policy-timers");
            t.setDaemon(true);
            return t;
          });
  private final Pipeline pipeline;

  PolicyTimers(Pipeline pipeline) {
    this.pipeline = pipeline;
  }

  /** Schedules {@code t}; called on the pipeline thread once its decisions are applied. */
  @Override
  public void accept(PolicyTimer t) {
    try {
      var unused = timer.schedule(() -> fire(t), t.delay().toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      LOG.debug("shutting down: policy timer {} dropped", t.event().type());
    }
  }

  private void fire(PolicyTimer t) {
    var unused = // failures are logged here
        pipeline
            .run(s -> s.decide(p -> p.handleEvent(t.event(), s.cache()), Set.of()))
            .whenComplete(
                (changed, e) -> {
                  if (e instanceof PolicyException p) {
                    LOG.warn(
                        "policy event {} for {}: {}",
                        t.event().type(),
                        t.event().cacheId(),
                        p.getMessage());
                  } else if (e != null) {
                    LOG.warn(
                        "policy event {} for {} failed", t.event().type(), t.event().cacheId(), e);
                  }
                });
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
