package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.proxy.DaemonMain;
import io.criresmgr.proxy.relay.RawClient;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One {@code cri-resmgr} daemon process of the crash test: started from the test class path with
 * cri-resmgr's flags, its output in a log file, killed with SIGKILL.
 */
final class CrashDaemon {
  /** Exit status of a process killed by SIGKILL (128 + 9). */
  static final int SIGKILL_STATUS = 137;

  /**
   * Where a daemon runs.
   *
   * @param runtimeSocket the simulated runtime's socket
   * @param relaySocket the socket the daemon serves
   * @param relayDir the daemon's state directory (the cache file is {@code relayDir/cache})
   * @param pidFile the PID file, written once the daemon serves
   * @param hostRoot a fake host root with {@code sys/devices/system/cpu/online}
   * @param config the forced configuration file
   */
  record Layout(
      Path runtimeSocket,
      Path relaySocket,
      Path relayDir,
      Path pidFile,
      Path hostRoot,
      Path config) {
    Layout {
      Objects.requireNonNull(runtimeSocket, "runtimeSocket");
      Objects.requireNonNull(relaySocket, "relaySocket");
      Objects.requireNonNull(relayDir, "relayDir");
      Objects.requireNonNull(pidFile, "pidFile");
      Objects.requireNonNull(hostRoot, "hostRoot");
      Objects.requireNonNull(config, "config");
    }

    /** The cache file the daemon writes. */
    Path cacheFile() {
      return relayDir.resolve("cache");
    }
  }

  private final Process process;
  private final Path log;

  private CrashDaemon(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts a daemon in {@code layout} on {@code jvm} writing stdout and stderr to {@code log}. */
  static CrashDaemon start(Layout layout, CrashJvm jvm, Path log) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command(layout, jvm));
    builder.redirectErrorStream(true);
    builder.redirectOutput(log.toFile());
    return new CrashDaemon(builder.start(), log);
  }

  /** The command line of a daemon in layout {@code l} on {@code jvm}. */
  static List<String> command(Layout l, CrashJvm jvm) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(jvm.options());
    command.addAll(List.of("-cp", jvm.classPath(), DaemonMain.class.getName()));
    command.addAll(
        List.of(
            "--runtime-socket", l.runtimeSocket().toString(),
            "--relay-socket", l.relaySocket().toString(),
            "--relay-dir", l.relayDir().toString(),
            "--pid-file", l.pidFile().toString(),
            "--host-root", l.hostRoot().toString(),
            "--cgroup-mount", l.hostRoot().resolve("sys/fs/cgroup").toString(),
            "--force-config", l.config().toString(),
            "--force-config-signal", "disabled"));
    return command;
  }

  /** The process id. */
  long pid() {
    return process.pid();
  }

  /** The daemon's output so far. */
  String output() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  /**
   * Waits until the daemon has written its PID file (it does so once it serves) and answers {@code
   * Version} on the relay socket.
   *
   * @throws AssertionError if the process exits or does not answer within {@code timeout}
   */
  void awaitServing(Layout layout, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!pidFileIsMine(layout.pidFile())) {
      if (!process.isAlive()) {
        throw new AssertionError(
            "the daemon exited with status " + process.exitValue() + "; output:\n" + output());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the daemon did not serve within " + timeout + "\n" + output());
      }
      Thread.sleep(10);
    }
    try (RawClient client = new RawClient(layout.relaySocket())) {
      RuntimeServiceGrpc.newBlockingStub(client.channel())
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .version(VersionRequest.newBuilder().setVersion("v1").build());
    } catch (StatusRuntimeException e) {
      throw new AssertionError("Version through the daemon failed: " + e + "\n" + output(), e);
    }
  }

  private boolean pidFileIsMine(Path pidFile) {
    try {
      return Files.readString(pidFile, StandardCharsets.US_ASCII).trim().equals(pid() + "");
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Kills the daemon with SIGKILL and checks it is gone.
   *
   * @throws AssertionError if it survives or exits with another status than SIGKILL's
   */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      throw new AssertionError("daemon " + pid() + " survived SIGKILL");
    }
    if (ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false)) {
      throw new AssertionError("daemon " + pid() + " is still alive after SIGKILL");
    }
    if (process.exitValue() != SIGKILL_STATUS) {
      throw new AssertionError(
          "daemon "
              + pid()
              + " exited with "
              + process.exitValue()
              + " before SIGKILL\n"
              + output());
    }
  }

  /** Stops the daemon with SIGTERM; returns its exit status. */
  int stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("daemon " + pid() + " did not stop on SIGTERM\n" + output());
    }
    return process.exitValue();
  }

  /** Kills the process if it still runs (test cleanup). */
  void destroy() {
    process.destroyForcibly();
  }
}
