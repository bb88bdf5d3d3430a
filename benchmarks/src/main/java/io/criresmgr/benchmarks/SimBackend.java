package io.criresmgr.benchmarks;

import io.criresmgr.sim.SimHooks;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The simulated runtime, in the benchmark's JVM on a Unix socket, answering Version as {@code
 * containerd} (so the daemon accepts it) with {@value CriRequests#IMAGE} present. Its hooks set the
 * latency per call; they also record every request, so benchmarks {@link #forget(Duration) forget}
 * them between iterations to keep memory flat.
 */
public final class SimBackend implements Testbed.Backend {
  private volatile @Nullable SimRuntimeServer server;

  /** A backend that is not started yet. */
  public SimBackend() {}

  @Override
  public AutoCloseable start(Path socket) throws IOException {
    SimOptions options =
        SimOptions.defaults()
            .withRuntimeName(VersionBackend.VERSION.getRuntimeName())
            .withImages(List.of(CriRequests.IMAGE));
    SimRuntimeServer started = new SimRuntimeServer(socket, new SimRuntime(options)).start();
    server = started;
    return started;
  }

  /** The runtime's test hooks. */
  public SimHooks hooks() {
    return Objects.requireNonNull(server, "not started").runtime().hooks();
  }

  /** Drops recorded requests and counters, keeping the latency. */
  public void forget(Duration latency) {
    SimHooks hooks = hooks();
    hooks.reset();
    hooks.setLatency(latency);
  }
}
