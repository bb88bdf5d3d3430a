package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.proxy.DaemonMain;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cri-resmgr (Go) unit's logging flags and variables on a real daemon process in front of the
 * simulated runtime: it serves, honours {@code LOGGER_SKIP_HEADERS} and warns once of the rest; a
 * malformed value stops it with a usage error.
 */
class KlogFlagsIT {
  private static final long DEADLINE_SECONDS = 60;

  @TempDir Path dir;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void kill() {
    processes.forEach(Process::destroyForcibly);
  }

  @Test
  void aCriResmgrUnitsLoggingFlagsStartAServingDaemonWithOneWarning() throws Exception {
    serveAndStop(List.of("-v=2", "-logtostderr", "-log_dir=/tmp/x"));
    List<String> lines = output().lines().toList();
    List<String> warnings = lines.stream().filter(l -> l.contains("WARN")).toList();
    assertEquals(
        List.of(
            "WARN  [KlogControl] ignoring cri-resmgr logging settings this daemon cannot honour:"
                + " -log_dir=/tmp/x (no log files: every line goes to stderr); -v=2 (no verbosity"
                + " levels: debug logging is per source, set with LOGGER_DEBUG or logger.Debug)"),
        warnings,
        output());
    assertTrue(
        lines.stream()
            .anyMatch(
                l ->
                    l.startsWith(
                        "INFO  [Daemon] cri-resmgr is up and running, serving CRI on "
                            + relaySocket()
                            + " (")),
        "LOGGER_SKIP_HEADERS=true: no time stamps\n" + output());
    assertTrue(lines.stream().noneMatch(l -> l.matches("^\\d\\d:\\d\\d:\\d\\d.*")), output());
  }

  @Test
  void aPlainCommandLinePrintsOnlyTheDaemonsOwnLines() throws Exception {
    // Its runtime connection is begun on threads of its own before the policies and the
    // configuration: none of them may log while SLF4J is being set up, or SLF4J warns that it
    // replays their lines.
    serveAndStop(List.of());
    List<String> lines = output().lines().toList();
    assertTrue(
        lines.stream().allMatch(l -> l.matches("(INFO |WARN |ERROR|DEBUG) \\[\\w+\\] .*")),
        output());
    assertTrue(lines.size() > 3, output());
  }

  @Test
  void aMalformedVerbosityStopsTheDaemonWithAUsageError() throws Exception {
    Process daemon = start(List.of("-v=abc"));
    assertTrue(daemon.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS), "exits");
    assertEquals(1, daemon.exitValue());
    assertTrue(
        output()
            .startsWith(
                "cri-resmgr: Invalid value for option '--v': invalid value \"abc\", expected an"
                    + " integer\n"),
        output());
  }

  @Test
  void aNativeLibraryThatCannotBeLoadedStopsTheStartWithOneClearError() throws Exception {
    // Without the library in java.library.path (the installed launchers put it there), netty
    // unpacks it into this directory: one it cannot make fails as a /tmp mounted noexec does.
    Path workdir = Files.writeString(dir.resolve("a-file"), "").resolve("native");
    Process daemon = start(List.of("-Dio.netty.native.workdir=" + workdir), List.of());
    assertTrue(daemon.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS), "exits");
    assertEquals(1, daemon.exitValue(), output());
    List<String> errors = output().lines().filter(l -> l.startsWith("ERROR")).toList();
    assertEquals(1, errors.size(), output());
    assertTrue(
        errors
            .get(0)
            .startsWith(
                "ERROR [Daemon] FATAL ERROR: cannot load netty's native epoll library, which Unix"
                    + " sockets need: "),
        output());
    assertTrue(errors.get(0).contains("unpacked into \"" + workdir + "\""), output());
    assertFalse(output().contains("\tat "), "no stack trace:\n" + output());
  }

  /**
   * Starts the daemon with {@code klogFlags} in front of a simulated containerd, checks that it
   * relays, stops it with SIGTERM and checks that it ends with status 0.
   */
  private void serveAndStop(List<String> klogFlags) throws Exception {
    try (SimRuntimeServer runtime =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withRuntimeName("containerd")))
            .start()) {
      Process daemon = start(klogFlags);
      awaitServing(daemon);
      assertEquals(runtime.runtime().options().runtimeName(), version());
      daemon.destroy(); // SIGTERM
      assertTrue(daemon.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS), "stops on SIGTERM");
      assertEquals(0, daemon.exitValue(), output());
    }
  }

  private Process start(List<String> klogFlags) throws IOException {
    return start(List.of(), klogFlags);
  }

  private Process start(List<String> jvmOptions, List<String> klogFlags) throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("forced.cfg"),
            "policy:\n  Active: none\ninstrumentation:\n  HTTPEndpoint: \"\"\n");
    List<String> command = new ArrayList<>();
    command.addAll(List.of(javaBinary(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    command.addAll(jvmOptions);
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), DaemonMain.class.getName()));
    command.addAll(klogFlags);
    command.addAll(
        List.of(
            "--runtime-socket", dir.resolve("rt.sock").toString(),
            "--relay-socket", relaySocket().toString(),
            "--relay-dir", dir.resolve("state").toString(),
            "--pid-file", pidFile().toString(),
            "--config-socket", "disabled",
            "--cgroup-mount", cgroupV2().toString(),
            "--force-config", config.toString(),
            "--force-config-signal", "disabled"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(dir.resolve("daemon.log").toFile());
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(k -> k.startsWith("LOGGER_") || k.equals("JOURNAL_STREAM"));
    env.put("LOGGER_SKIP_HEADERS", "true");
    Process p = builder.start();
    processes.add(p);
    return p;
  }

  /** An empty cgroup v2 hierarchy, so that no controller warns of its absence. */
  private Path cgroupV2() throws IOException {
    Path mount = Files.createDirectories(dir.resolve("cgroup"));
    Files.writeString(mount.resolve("cgroup.controllers"), "cpuset cpu memory\n");
    return mount;
  }

  private static String javaBinary() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  private Path relaySocket() {
    return dir.resolve("relay/cri-resmgr.sock");
  }

  private Path pidFile() {
    return dir.resolve("cri-resmgr.pid");
  }

  private String output() throws IOException {
    return Files.readString(dir.resolve("daemon.log"), StandardCharsets.UTF_8);
  }

  /** Waits until the daemon has written its PID file, which it does once it serves. */
  private void awaitServing(Process daemon) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    while (!pidFileIsWritten(daemon.pid())) {
      assertTrue(daemon.isAlive(), () -> "the daemon exited early:\n" + outputOrError());
      assertTrue(System.nanoTime() < deadline, () -> "not serving in time:\n" + outputOrError());
      Thread.sleep(20); // polling interval
    }
  }

  private boolean pidFileIsWritten(long pid) {
    try {
      return Files.readString(pidFile(), StandardCharsets.US_ASCII).trim().equals(pid + "");
    } catch (IOException e) {
      return false;
    }
  }

  private String outputOrError() {
    try {
      return output();
    } catch (IOException e) {
      return e.toString();
    }
  }

  private String version() {
    try (RawClient client = new RawClient(relaySocket())) {
      return RuntimeServiceGrpc.newBlockingStub(client.channel())
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .version(VersionRequest.getDefaultInstance())
          .getRuntimeName();
    }
  }
}
