package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/cri-resmgr} as a child process relaying to a real runtime, with a forced configuration
 * (by default policy {@code none} and no HTTP endpoint). Its output goes to {@code cri-resmgr.log}
 * in its work directory.
 */
final class CriResmgrProcess implements ResmgrDaemon {
  private static final Logger LOG = LoggerFactory.getLogger(CriResmgrProcess.class);
  private static final long START_MILLIS = 60_000;

  /** Policy {@code none}, no HTTP endpoint. */
  static final String POLICY_NONE =
      """
      policy:
        Active: none
      instrumentation:
        HTTPEndpoint: ""
        PrometheusExport: false
      """;

  private final Process process;
  private final Path relaySocket;
  private final Path pidFile;
  private final Path log;

  private CriResmgrProcess(Process process, Path workDir) {
    this.process = process;
    this.relaySocket = workDir.resolve("cri-resmgr.sock");
    this.pidFile = workDir.resolve("cri-resmgr.pid");
    this.log = workDir.resolve("cri-resmgr.log");
  }

  /**
   * Starts the launcher and waits until the relay socket and the PID file exist.
   *
   * @param launcher {@code bin/cri-resmgr}
   * @param runtimeSocket the runtime's socket
   * @param workDir an empty directory with a short path (unix socket paths must stay short)
   * @throws IllegalStateException if the daemon exits or no socket appears within 60 s
   */
  static CriResmgrProcess start(Path launcher, Path runtimeSocket, Path workDir)
      throws IOException, InterruptedException {
    return start(launcher, runtimeSocket, workDir, POLICY_NONE);
  }

  /**
   * Starts the launcher with {@code configYaml} as {@code --force-config}; otherwise as {@link
   * #start(Path, Path, Path)}.
   */
  static CriResmgrProcess start(Path launcher, Path runtimeSocket, Path workDir, String configYaml)
      throws IOException, InterruptedException {
    Files.createDirectories(workDir);
    Path config = Files.writeString(workDir.resolve("cri-resmgr.cfg"), configYaml);
    List<String> command =
        List.of(
            launcher.toString(),
            "--runtime-socket",
            runtimeSocket.toString(),
            "--relay-socket",
            workDir.resolve("cri-resmgr.sock").toString(),
            "--relay-dir",
            workDir.resolve("relay").toString(),
            "--pid-file",
            workDir.resolve("cri-resmgr.pid").toString(),
            "--force-config",
            config.toString());
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(workDir.resolve("cri-resmgr.log").toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    var daemon = new CriResmgrProcess(p, workDir);
    daemon.awaitSocket();
    return daemon;
  }

  private void awaitSocket() throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    long deadline = System.currentTimeMillis() + START_MILLIS;
    // the PID file is written last, once the relay socket is served
    while (!Files.exists(relaySocket) || !Files.exists(pidFile)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "cri-resmgr exited with "
                + process.exitValue()
                + " before serving "
                + relaySocket
                + "; its output:\n"
                + Files.readString(log, StandardCharsets.UTF_8));
      }
      if (System.currentTimeMillis() > deadline) {
        close();
        throw new IllegalStateException("cri-resmgr did not create " + relaySocket + " in 60 s");
      }
      Thread.sleep(20);
    }
    LOG.info(
        "cri-resmgr pid {} serving {} after {} ms",
        process.pid(),
        relaySocket,
        (System.nanoTime() - t0) / 1_000_000);
  }

  /** The socket the proxy serves. */
  @Override
  public Path relaySocket() {
    return relaySocket;
  }

  /** The relay directory, {@code <workDir>/relay}. */
  @Override
  public Path relayDir() {
    return relaySocket.resolveSibling("relay");
  }

  /** What the daemon has logged so far. */
  @Override
  public String log() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** Sends SIGTERM, then SIGKILL after 10 s. */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        LOG.warn("cri-resmgr pid {} ignored SIGTERM; killing it", process.pid());
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
