package io.criresmgr.simulator;

import io.criresmgr.proxy.config.ConfigException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Runs the steps of a scenario; each returns what failed, or nothing. */
final class StepRunner {
  private static final long POLL_MILLIS = 50;

  private final RunContext ctx;

  StepRunner(RunContext ctx) {
    this.ctx = ctx;
  }

  /** Runs {@code step}, labelled {@code label} for the listener; returns what failed. */
  Optional<String> run(Step step, String label) throws InterruptedException {
    if (step instanceof Step.Create c) {
      return create(c);
    } else if (step instanceof Step.Delete d) {
      return delete(d);
    } else if (step instanceof Step.Check c) {
      return verify(c.verify(), label);
    } else if (step instanceof Step.ExpectError e) {
      return expectError(e);
    } else if (step instanceof Step.Restart r) {
      return restart(r).map(m -> "restart failed: " + m);
    } else if (step instanceof Step.Reconfigure r) {
      return reconfigure(r).map(m -> "reconfigure failed: " + m);
    } else if (step instanceof Step.Metrics m) {
      return new MetricsCheck(ctx.daemon::metrics).await(m);
    } else if (step instanceof Step.Exit e) {
      return kubelet(() -> ctx.kubelet.exit(e.container(), e.code(), e.restart()));
    } else if (step instanceof Step.Wait w) {
      Thread.sleep(w.duration().toMillis());
      return Optional.empty();
    } else if (step instanceof Step.ExpectLog l) {
      return expectLog(l);
    } else if (step instanceof Step.Defaults d) {
      ctx.setDefaults(d.vars());
      return Optional.empty();
    } else if (step instanceof Step.ResetCounters) {
      ctx.resetCounters();
      return Optional.empty();
    } else if (step instanceof Step.Random r) {
      return new RandomDriver(ctx).run(r);
    }
    throw new IllegalStateException("unknown step " + step);
  }

  private Optional<String> create(Step.Create c) {
    PodSpec spec = ctx.resolve(c.vars());
    Optional<String> failed = kubelet(() -> ctx.kubelet.create(spec));
    if (failed.isEmpty()) {
      ctx.commit(c.vars());
    }
    return failed.map(m -> "creating pod " + spec.name() + " failed: " + m);
  }

  private Optional<String> delete(Step.Delete d) {
    List<String> pods =
        d.pods().equals(List.of(Step.Delete.ALL)) ? ctx.kubelet.podNames() : d.pods();
    return kubelet(() -> pods.forEach(ctx.kubelet::delete));
  }

  /**
   * Polls until {@code verify} holds or its timeout passes; reports the last failures. Tells the
   * listener the placement under {@code label}, unless it is null.
   */
  Optional<String> verify(Verify verify, @Nullable String label) throws InterruptedException {
    long deadline = System.nanoTime() + verify.timeout().toNanos();
    while (true) {
      Observed observed = ctx.observer.read();
      List<String> failures = new Checker(observed).failures(verify);
      boolean late = System.nanoTime() > deadline;
      if (label != null && (failures.isEmpty() || late)) {
        ctx.listener.verified(label, observed, ctx.observer.topology());
      }
      if (failures.isEmpty() || late) {
        return failures.isEmpty() ? Optional.empty() : Optional.of(String.join("\n  ", failures));
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  private Optional<String> expectError(Step.ExpectError e) throws InterruptedException {
    Optional<String> error;
    String what;
    if (e.step() instanceof Step.Create c) {
      PodSpec spec = ctx.resolve(c.vars());
      what = "creating pod " + spec.name();
      error = kubelet(() -> ctx.kubelet.create(spec));
    } else if (e.step() instanceof Step.Reconfigure r) {
      what = "reconfiguring the daemon";
      error = reconfigure(r);
    } else {
      what = "restarting the daemon";
      error = restart((Step.Restart) e.step());
    }
    return check(what, error, e.message());
  }

  private static Optional<String> check(String what, Optional<String> error, Pattern expected) {
    if (error.isEmpty()) {
      return Optional.of(
          "expected " + what + " to fail with an error matching /" + expected + "/, it succeeded");
    }
    if (!expected.matcher(error.get()).find()) {
      return Optional.of(
          "expected "
              + what
              + " to fail with an error matching /"
              + expected
              + "/, it failed with: "
              + error.get());
    }
    return Optional.empty();
  }

  /** Restarts the daemon; returns the error if it does not start (it then stays down). */
  private Optional<String> restart(Step.Restart r) throws InterruptedException {
    ctx.daemon.stop();
    String config = r.config().orElse(ctx.config);
    try {
      ctx.daemon.start(config);
    } catch (RuntimeException e) {
      ctx.daemon.stop();
      return Optional.of(String.valueOf(e.getMessage()));
    }
    ctx.config = config;
    return Optional.empty();
  }

  /** Reconfigures the running daemon; returns why it was rejected (the old one stays active). */
  private Optional<String> reconfigure(Step.Reconfigure r) {
    try {
      ctx.daemon.reconfigure(r.config());
    } catch (ConfigException | KubeletException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
    ctx.config = r.config();
    return Optional.empty();
  }

  private Optional<String> expectLog(Step.ExpectLog l) throws InterruptedException {
    if (l.present()) {
      Duration timeout = l.timeout();
      return ctx.logs.await(l.pattern(), timeout).isPresent()
          ? Optional.empty()
          : Optional.of(
              "no line of the daemon's log matches /"
                  + l.pattern()
                  + "/ (waited "
                  + timeout.toMillis()
                  + " ms)");
    }
    if (!l.timeout().isZero()) {
      Thread.sleep(l.timeout().toMillis());
    }
    return ctx.logs
        .find(l.pattern())
        .map(line -> "a line of the daemon's log matches /" + l.pattern() + "/: " + line);
  }

  private static Optional<String> kubelet(Runnable action) {
    try {
      action.run();
      return Optional.empty();
    } catch (KubeletException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
  }
}
