package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.VersionRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package the build makes, installed on this machine: the installed launcher runs,
 * postinst made the class data sharing archive and the daemon maps it, a relay from the installed
 * files serves in front of the simulated runtime, {@code systemd-analyze verify} accepts the units
 * (the CRI relay's and NRI mode's), enabling them works, and a purge leaves no file behind
 * (docs/packages.md).
 */
@Tag("e2e")
class DebPackageIT {
  private static final Path DIST = Path.of("").toAbsolutePath().getParent().resolve("dist/target");
  private static final List<String> UNITS =
      List.of(
          "/lib/systemd/system/cri-resource-manager.service",
          "/lib/systemd/system/cri-resource-manager.socket",
          "/lib/systemd/system/cri-resource-manager-nri.service");
  private static final List<Path> WATCHED =
      Stream.of("/usr", "/etc", "/lib/systemd", "/var/lib", "/var/cache", "/run", "/opt")
          .map(Path::of)
          .toList();

  @TempDir Path dir;

  @Test
  void installsRunsAndPurgesWithoutTrace() throws Exception {
    Path deb = prerequisites();
    Set<String> before = files();
    try {
      run("dpkg", "-i", deb.toString());
      checkInstalled(deb);
    } finally {
      run("dpkg", "--purge", "cri-resmgr");
    }
    Set<String> left = new TreeSet<>(files());
    left.removeAll(before);
    left.removeIf(f -> f.startsWith("/run/systemd/")); // systemctl's own bookkeeping
    assertEquals(Set.of(), left, "files left after purging cri-resmgr");
  }

  private void checkInstalled(Path deb) throws Exception {
    String version = run("dpkg-deb", "-f", deb.toString(), "Version").trim().replace('~', '-');
    assertTrue(
        run("cri-resmgr", "--version").contains("version: " + version),
        "the installed cri-resmgr is version " + version);
    assertTrue(Files.size(Path.of("/var/cache/cri-resmgr/cri-resmgr.jsa")) > 0, "postinst's CDS");
    List<String> verify = new ArrayList<>(List.of("systemd-analyze", "verify"));
    verify.addAll(UNITS);
    assertEquals("", run(verify.toArray(String[]::new)), "systemd-analyze verify");
    relayFromInstalledFiles();
    run("systemctl", "enable", "cri-resource-manager.socket", "cri-resource-manager.service");
    assertTrue(
        Files.isSymbolicLink(
            Path.of("/etc/systemd/system/sockets.target.wants/cri-resource-manager.socket")));
    // NRI mode's unit too (prerm must disable it before the purge below finds its link).
    run("systemctl", "enable", "cri-resource-manager-nri.service");
    assertTrue(
        Files.isSymbolicLink(
            Path.of(
                "/etc/systemd/system/multi-user.target.wants/cri-resource-manager-nri.service")));
  }

  /** /usr/bin/cri-resmgr relays Version to the simulated runtime of the installed jars. */
  private void relayFromInstalledFiles() throws Exception {
    Path sim = dir.resolve("sim.sock");
    Path relay = dir.resolve("relay.sock");
    Path config = dir.resolve("none.cfg");
    Files.writeString(config, "policy: {Active: none}\ninstrumentation: {HTTPEndpoint: \"\"}\n");
    Files.createDirectories(dir.resolve("cgroup"));
    Process runtime = start("sim.log", "cri-resmgr", "sim-runtime", "--socket", sim.toString());
    Process daemon = null;
    try {
      await(() -> Files.exists(sim), "the simulated runtime's socket", runtime, "sim.log");
      // The launcher loads netty's library from lib/native: netty would otherwise unpack it into
      // this directory (/tmp by default, where a noexec mount fails the start) and, told so,
      // keep it there until the daemon exits.
      Path workdir = Files.createDirectory(dir.resolve("netty-workdir"));
      daemon =
          start(
              "daemon.log",
              Map.of(
                  "JAVA_OPTS",
                  "-Dio.netty.native.workdir="
                      + workdir
                      + " -Dio.netty.native.deleteLibAfterLoading=false"),
              daemonCommand(sim, relay, config));
      Path pid = dir.resolve("pid");
      await(() -> Files.exists(pid), "the daemon's PID file", daemon, "daemon.log");
      try (CriClient client = new CriClient(relay)) {
        String name =
            client.runtime().version(VersionRequest.newBuilder().build()).getRuntimeName();
        assertEquals("cri-resmgr-sim-runtime", name);
      }
      try (Stream<Path> unpacked = Files.list(workdir)) {
        assertEquals(List.of(), unpacked.toList(), "netty unpacked its library; lib/native unused");
      }
      String log = Files.readString(dir.resolve("daemon.log"));
      assertFalse(log.contains("Unable to use shared archive"), log);
      // The runtime's connection starts on threads of its own once logging is set up; logging
      // from them while SLF4J was being set up made it print a replay warning on every start.
      assertFalse(log.contains("SLF4J"), log);
    } finally {
      stop(daemon);
      stop(runtime);
    }
  }

  private String[] daemonCommand(Path sim, Path relay, Path config) {
    return new String[] {
      "cri-resmgr", "--allow-untested-runtimes",
      "--runtime-socket", sim.toString(),
      "--relay-socket", relay.toString(),
      "--relay-dir", dir.resolve("relay").toString(),
      "--pid-file", dir.resolve("pid").toString(),
      "--cgroup-mount", dir.resolve("cgroup").toString(),
      "--force-config", config.toString()
    };
  }

  /** The .deb of this machine's architecture; skips (or fails under CI) what cannot run here. */
  private static Path prerequisites() throws Exception {
    if (!"root".equals(System.getProperty("user.name"))) {
      E2eRequirement.unavailable("installing a package needs root");
    }
    for (String tool : List.of("dpkg", "systemd-analyze", "systemctl")) {
      if (!onPath(tool)) {
        E2eRequirement.unavailable(tool + " is not installed");
      }
    }
    if (run("dpkg-query", "-W", "-f=${Status}", "cri-resmgr", "||", "true").contains("installed")) {
      E2eRequirement.unavailable("cri-resmgr is already installed here; remove it first");
    }
    String arch = run("dpkg", "--print-architecture").trim();
    try (Stream<Path> debs = Files.list(DIST)) {
      return debs.filter(
              p -> p.getFileName().toString().matches("cri-resmgr_.*_" + arch + "\\.deb"))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no cri-resmgr_*_" + arch + ".deb in " + DIST));
    }
  }

  private static boolean onPath(String tool) {
    return Stream.of(System.getenv("PATH").split(":"))
        .anyMatch(d -> Files.isExecutable(Path.of(d, tool)));
  }

  /** Every path under the watched directories. */
  private static Set<String> files() throws IOException {
    Set<String> all = new TreeSet<>();
    for (Path root : WATCHED) {
      if (Files.isDirectory(root)) {
        try (Stream<Path> walk = Files.walk(root)) {
          walk.forEach(p -> all.add(p.toString()));
        }
      }
    }
    return all;
  }

  /** Runs a command through sh, returns its standard output; fails on a non-zero status. */
  private static String run(String... command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("sh", "-c", String.join(" ", quoted(command)));
    Process process = builder.redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new AssertionError(String.join(" ", command) + " failed:\n" + out);
    }
    return out;
  }

  private static List<String> quoted(String... words) {
    return Stream.of(words)
        .map(w -> w.equals("||") ? w : "'" + w.replace("'", "'\\''") + "'")
        .toList();
  }

  private Process start(String log, String... command) throws IOException {
    return start(log, Map.of(), command);
  }

  private Process start(String log, Map<String, String> env, String... command) throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(log).toFile());
    builder.environment().putAll(env);
    return builder.start();
  }

  private void await(Check check, String what, Process process, String log) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!check.holds()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new AssertionError("no " + what + "; output:\n" + Files.readString(dir.resolve(log)));
      }
      Thread.sleep(20);
    }
  }

  private interface Check {
    boolean holds() throws IOException;
  }

  private static void stop(Process process) throws InterruptedException {
    if (process != null) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
