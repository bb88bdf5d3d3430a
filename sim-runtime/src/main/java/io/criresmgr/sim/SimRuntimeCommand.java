package io.criresmgr.sim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cri-resmgr sim-runtime --socket PATH [--images a,b]}: serves a {@link SimRuntime} until
 * SIGTERM or SIGINT (or {@link #stop()}).
 */
@Command(
    name = "sim-runtime",
    mixinStandardHelpOptions = true,
    description =
        "Serve a simulated, in-memory CRI runtime (RuntimeService and ImageService) on a Unix"
            + " socket, for trying out the proxy without containerd.")
public final class SimRuntimeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(SimRuntimeCommand.class);

  @Option(
      names = "--socket",
      required = true,
      paramLabel = "PATH",
      description = "Unix socket to serve on (a unix:// prefix is accepted).")
  private String socket = "";

  @Option(
      names = "--images",
      split = ",",
      paramLabel = "IMAGE",
      description = "Images present from the start, e.g. busybox,registry.k8s.io/pause:3.10.")
  private List<String> images = new ArrayList<>();

  @Spec private CommandSpec spec = CommandSpec.create();

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);

  /** Serves until stopped; returns the exit code 0. */
  @Override
  public Integer call() throws Exception {
    Path path = socketPath();
    SimRuntime runtime = newRuntime();
    Thread hook = new Thread(this::stopAndWait, "sim-runtime-shutdown");
    try (SimRuntimeServer server = new SimRuntimeServer(path, runtime)) {
      server.start();
      Runtime.getRuntime().addShutdownHook(hook);
      log.info("simulated runtime serving on {}", server.socket());
      stopped.await();
      log.info("simulated runtime stopping");
    } finally {
      closed.countDown();
      removeHook(hook);
    }
    return 0;
  }

  /** Makes {@link #call()} close the server and return. */
  public void stop() {
    stopped.countDown();
  }

  /** On SIGTERM/SIGINT: lets {@link #call()} remove the socket before the JVM exits. */
  private void stopAndWait() {
    stop();
    try {
      closed.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The socket path with any {@code unix://} prefix removed. */
  Path socketPath() {
    String path = socket.startsWith("unix://") ? socket.substring("unix://".length()) : socket;
    if (path.isBlank()) {
      throw new ParameterException(
          spec.commandLine(), "--socket: must name a path, got \"" + socket + "\"");
    }
    return Path.of(path);
  }

  private SimRuntime newRuntime() {
    try {
      return new SimRuntime(SimOptions.defaults().withImages(images));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--" + e.getMessage(), e);
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down: the hook is running or has run.
    }
  }
}
