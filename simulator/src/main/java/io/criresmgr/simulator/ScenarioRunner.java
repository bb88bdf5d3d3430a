package io.criresmgr.simulator;

import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.proxy.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs a {@link Scenario} through the real daemon: writes a fake host (sysfs of the topology,
 * cgroups) into a temporary directory, serves the simulated runtime there, starts the daemon with
 * the scenario's configuration and {@code --host-root} on that host, drives the steps as kubelet
 * would over the relay socket, and checks every expectation against what the runtime reports in
 * {@code ContainerStatus}. Stops at the first failing step. Not thread-safe: the daemon's logging
 * is process-wide, so run one scenario at a time.
 */
public final class ScenarioRunner {
  private static final int LOG_TAIL = 40;

  private final PolicyRegistry registry;
  private final boolean quiet;
  private final Listener listener;

  /** Sees the placement after each verify step, and at the end. */
  public interface Listener {
    /**
     * A verify step labelled {@code label} (e.g. {@code step 3, line 12}) read {@code observed}.
     */
    default void verified(String label, Observed observed, SystemTopology topology) {}

    /**
     * The scenario ended (passed or not) with {@code observed}; {@code daemon} is still there to be
     * asked.
     */
    default void finished(Observed observed, SystemTopology topology, LiveDaemon daemon) {}
  }

  /**
   * A runner with the policies of {@code registry}; {@code quiet} keeps the daemon's log off the
   * console while a scenario runs.
   */
  public ScenarioRunner(PolicyRegistry registry, boolean quiet, Listener listener) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.quiet = quiet;
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** A quiet runner with the built-in policies and no listener. */
  public ScenarioRunner() {
    this(BuiltInPolicies.registry(), true, new Listener() {});
  }

  /**
   * Runs {@code scenario}.
   *
   * @throws ScenarioException if its topology or configuration is invalid
   */
  public ScenarioResult run(Scenario scenario) throws InterruptedException {
    Path dir = tempDir();
    try (LogCapture logs = LogCapture.start(quiet)) {
      Path host = dir.resolve("host");
      SystemTopology topology = HostTree.write(scenario, host);
      try (DaemonControl daemon = new DaemonControl(dir, host, registry)) {
        checkConfig(scenario, daemon);
        Kubelet kubelet =
            new Kubelet(daemon::relay, daemon.runtime(), daemon::introspect, scenario.webhook());
        Observer observer = new Observer(daemon::direct, topology, daemon::introspect);
        RunContext ctx =
            new RunContext(daemon, kubelet, observer, logs, listener, scenario.config());
        return steps(scenario, ctx);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set up the scenario in " + dir, e);
    } finally {
      deleteTree(dir);
    }
  }

  private ScenarioResult steps(Scenario scenario, RunContext ctx) throws InterruptedException {
    Optional<String> failure = start(ctx);
    int run = 0;
    List<Step> steps = scenario.steps();
    while (failure.isEmpty() && run < steps.size()) {
      Step step = steps.get(run++);
      String label = "step " + run + " (" + step.kind() + ", line " + step.line() + ")";
      failure = new StepRunner(ctx).run(step, label).map(m -> label + ": " + m);
    }
    listener.finished(ctx.observer.read(), ctx.observer.topology(), ctx.daemon);
    List<String> tail = failure.isPresent() ? ctx.logs.tail(LOG_TAIL) : List.of();
    return new ScenarioResult(scenario.source(), run, failure, tail);
  }

  private static Optional<String> start(RunContext ctx) throws InterruptedException {
    try {
      ctx.daemon.start(ctx.config);
      return Optional.empty();
    } catch (RuntimeException e) {
      ctx.daemon.stop();
      return Optional.of("the daemon did not start: " + e.getMessage());
    }
  }

  private static void checkConfig(Scenario scenario, DaemonControl daemon) {
    try {
      daemon.parse(scenario.config());
    } catch (ConfigException e) {
      throw new ScenarioException(scenario.source() + ": config: " + e.getMessage(), e);
    }
  }

  private static Path tempDir() {
    try {
      // Short: Unix socket paths below it must stay under 108 bytes.
      return Files.createTempDirectory("crs");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory", e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temporary directory left behind is harmless
    }
  }
}
