package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.DaemonMain;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --health-endpoint} on a real daemon process (the command line as the chart gives it, read
 * by the plain parse): {@code /livez} and {@code /healthz} are served on the flag's port while the
 * configuration serves no HTTP, and keep being served after a reload (SIGHUP) that gives the
 * configuration an endpoint of its own; a port in use stops the start with one clear error.
 */
class HealthEndpointFlagIT {
  private static final long DEADLINE_SECONDS = 60;
  private static final Pattern HEALTH_LINE =
      Pattern.compile("serving /livez and /healthz at http://\\S+ \\(port (\\d+)\\)");
  private static final Pattern UP = Pattern.compile("cri-resmgr is up and running");
  private static final Pattern METRICS_LINE =
      Pattern.compile("serving /metrics, /introspect and /ui at http://\\S+ \\(port (\\d+)\\)");

  @TempDir Path dir;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void kill() {
    processes.forEach(Process::destroyForcibly);
  }

  @Test
  void servesTheProbesWithoutAConfiguredEndpointAndAcrossAReload() throws Exception {
    try (SimRuntimeServer runtime = startRuntime()) {
      Process daemon = start(runtime.socket(), "127.0.0.1:0", "\"\"");
      int health = awaitPort(daemon, HEALTH_LINE).orElseThrow();
      awaitLine(daemon, UP); // ready once started; the reload is applied by the started daemon
      assertWell(health);

      writeConfig("127.0.0.1:0");
      new ProcessBuilder("kill", "-HUP", String.valueOf(daemon.pid())).start().waitFor();
      int metrics = awaitPort(daemon, METRICS_LINE).orElseThrow();
      assertWell(metrics);
      assertWell(health);

      daemon.destroy(); // SIGTERM
      assertTrue(daemon.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS), "stops on SIGTERM");
      assertEquals(0, daemon.exitValue(), output());
    }
  }

  @Test
  void aPortInUseStopsTheStartWithOneClearError() throws Exception {
    try (SimRuntimeServer runtime = startRuntime();
        ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String endpoint = "127.0.0.1:" + squatter.getLocalPort();
      Process daemon = start(runtime.socket(), endpoint, "\"\"");
      assertTrue(daemon.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS), "exits");
      assertEquals(1, daemon.exitValue(), output());
      List<String> errors = output().lines().filter(l -> l.startsWith("ERROR")).toList();
      assertEquals(1, errors.size(), output());
      assertTrue(
          errors
              .get(0)
              .startsWith(
                  "ERROR [Daemon] FATAL ERROR: --health-endpoint: cannot listen on \""
                      + endpoint
                      + "\": "),
          output());
      assertTrue(errors.get(0).contains("in use"), output());
    }
  }

  private SimRuntimeServer startRuntime() throws IOException {
    return new SimRuntimeServer(
            dir.resolve("rt.sock"),
            new SimRuntime(SimOptions.defaults().withRuntimeName("containerd")))
        .start();
  }

  private Path writeConfig(String httpEndpoint) throws IOException {
    return Files.writeString(
        dir.resolve("forced.cfg"),
        "policy:\n  Active: none\ninstrumentation:\n  HTTPEndpoint: " + httpEndpoint + "\n");
  }

  private Process start(Path runtimeSocket, String healthEndpoint, String httpEndpoint)
      throws IOException {
    Path config = writeConfig(httpEndpoint);
    Path cgroup = Files.createDirectories(dir.resolve("cgroup"));
    Files.writeString(cgroup.resolve("cgroup.controllers"), "cpuset cpu memory\n");
    List<String> command =
        List.of(
            ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()),
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            DaemonMain.class.getName(),
            "--runtime-socket=" + runtimeSocket,
            "--relay-socket=" + dir.resolve("relay/cri-resmgr.sock"),
            "--relay-dir=" + dir.resolve("state"),
            "--pid-file=" + dir.resolve("cri-resmgr.pid"),
            "--config-socket=disabled",
            "--cgroup-mount=" + cgroup,
            "--force-config=" + config,
            "--health-endpoint=" + healthEndpoint);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(dir.resolve("daemon.log").toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("LOGGER_"));
    builder.environment().put("LOGGER_SKIP_HEADERS", "true");
    Process p = builder.start();
    processes.add(p);
    return p;
  }

  private String output() throws IOException {
    return Files.readString(dir.resolve("daemon.log"), StandardCharsets.UTF_8);
  }

  /** Waits for the daemon's log line naming the port of {@code line}'s server; the last one. */
  private Optional<Integer> awaitPort(Process daemon, Pattern line) throws Exception {
    awaitLine(daemon, line);
    Matcher m = line.matcher(output());
    Integer port = null;
    while (m.find()) {
      port = Integer.parseInt(m.group(1));
    }
    return Optional.ofNullable(port);
  }

  private void awaitLine(Process daemon, Pattern line) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    while (!line.matcher(output()).find()) {
      assertTrue(daemon.isAlive(), () -> "the daemon exited early:\n" + outputOrError());
      assertTrue(
          System.nanoTime() < deadline, () -> "no " + line + " in time:\n" + outputOrError());
      Thread.sleep(20); // polling interval
    }
  }

  private String outputOrError() {
    try {
      return output();
    } catch (IOException e) {
      return e.toString();
    }
  }

  private static void assertWell(int port) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    for (String path : List.of("/livez", "/healthz")) {
      HttpResponse<String> reply =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, reply.statusCode(), path + ": " + reply.body());
      assertEquals("ok\n", reply.body(), path);
    }
  }
}
