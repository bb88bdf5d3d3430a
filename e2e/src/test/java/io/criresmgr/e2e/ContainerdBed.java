package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The private containerd started by {@code e2e/bed/start-containerd.sh}. It is stopped again by
 * {@link #stop()} only if this run started it; a bed started by hand stays up.
 */
final class ContainerdBed {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerdBed.class);
  // the first start may install Debian packages
  private static final Duration START_TIMEOUT = Duration.ofMinutes(15);
  private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

  private final Path bedDir;
  private final Path logDir;
  private final Path socket;
  private final boolean startedHere;

  private ContainerdBed(Path bedDir, Path logDir, Path socket, boolean startedHere) {
    this.bedDir = bedDir;
    this.logDir = logDir;
    this.socket = socket;
    this.startedHere = startedHere;
  }

  /**
   * Starts the bed (or finds it running).
   *
   * @param bedDir directory holding the scripts ({@code e2e/bed})
   * @param logDir where the scripts' output is kept
   * @throws BedUnavailableException with the script's error output if it fails
   */
  static ContainerdBed start(Path bedDir, Path logDir)
      throws IOException, InterruptedException, BedUnavailableException {
    BedScript.Result r =
        new BedScript(bedDir.resolve("start-containerd.sh"), logDir).run(START_TIMEOUT);
    String endpoint = r.values().getOrDefault("CRI_ENDPOINT", "");
    if (r.exitCode() != 0 || !endpoint.startsWith("unix://")) {
      throw new BedUnavailableException(
          "start-containerd.sh exited with " + r.exitCode() + ": " + tail(r.stderr()));
    }
    boolean startedHere = !"1".equals(r.values().get("E2E_ALREADY_RUNNING"));
    Path socket = Path.of(endpoint.substring("unix://".length()));
    LOG.info("containerd bed at {} (started here: {})", socket, startedHere);
    return new ContainerdBed(bedDir, logDir, socket, startedHere);
  }

  /**
   * Starts the bed for a test class in module directory {@code moduleDir}, or skips the class (see
   * {@link E2eRequirement}) when not root or when the bed cannot start.
   */
  static ContainerdBed startOrSkip(Path moduleDir) throws IOException, InterruptedException {
    if (!Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))) {
      E2eRequirement.unavailable("not root; containerd and runc need root");
    }
    long t0 = System.nanoTime();
    try {
      ContainerdBed bed = start(bedDir(moduleDir), moduleDir.resolve("target/e2e"));
      LOG.info("bed ready in {} ms", (System.nanoTime() - t0) / 1_000_000);
      return bed;
    } catch (BedUnavailableException e) {
      E2eRequirement.unavailable(e.getMessage());
      throw new IllegalStateException("unreachable: unavailable() aborts", e);
    }
  }

  /** containerd's CRI socket. */
  Path socket() {
    return socket;
  }

  /** Stops the bed if this run started it. */
  void stop() throws IOException, InterruptedException {
    if (!startedHere) {
      LOG.info("leaving the containerd bed running: it was up before the tests");
      return;
    }
    BedScript.Result r =
        new BedScript(bedDir.resolve("stop-containerd.sh"), logDir).run(STOP_TIMEOUT);
    if (r.exitCode() != 0) {
      LOG.warn("stop-containerd.sh exited with {}: {}", r.exitCode(), tail(r.stderr()));
    }
  }

  /** The repository's {@code e2e/bed} directory, found from the module directory. */
  static Path bedDir(Path moduleDir) throws BedUnavailableException {
    Path dir = moduleDir.resolve("bed");
    if (!Files.isRegularFile(dir.resolve("start-containerd.sh"))) {
      throw new BedUnavailableException("no start-containerd.sh in " + dir);
    }
    return Objects.requireNonNull(dir);
  }

  private static String tail(String text) {
    return text.length() <= 2000 ? text : "..." + text.substring(text.length() - 2000);
  }

  /** The bed cannot run here (not root, no packages, containerd does not start). */
  static final class BedUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    BedUnavailableException(String message) {
      super(message);
    }
  }
}
