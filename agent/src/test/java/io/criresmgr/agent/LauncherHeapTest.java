package io.criresmgr.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent runs with a 128m heap and each probe with 64m: the bin/ launchers run with a fake java
 * that prints its arguments. (The image's entry point and probe are checked in module images.)
 */
class LauncherHeapTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @TempDir Path dist;

  @Test
  void theProbeRunsWith64mAndTheAgentWith128m() throws Exception {
    assertEquals("-Xmx64m", heap(run("cri-resmgr-agent-probe", "-XX:-UsePerfData")));
    assertEquals("-Xmx128m", heap(run("cri-resmgr-agent", "-XX:-UsePerfData")));
  }

  @Test
  void anXmxInJavaOptsStillWins() throws Exception {
    assertEquals("-Xmx300m", heap(run("cri-resmgr-agent", "-Xmx300m")));
    assertEquals("-Xmx300m", heap(run("cri-resmgr-agent-probe", "-Xmx300m")));
  }

  @Test
  void everyLauncherExitsOnOutOfMemory() throws Exception {
    for (String launcher : List.of("cri-resmgr", "cri-resmgr-agent", "cri-resmgr-webhook")) {
      assertTrue(
          run(launcher, "").contains("-XX:+ExitOnOutOfMemoryError"),
          launcher + " must not leave a half-alive process after an OutOfMemoryError");
    }
  }

  @Test
  void everyLongRunningLauncherCompilesLaterToStartWithLessCpu() throws Exception {
    for (String launcher : List.of("cri-resmgr", "cri-resmgr-agent", "cri-resmgr-webhook")) {
      assertTrue(
          run(launcher, "").contains("-XX:CompileThresholdScaling=3"),
          launcher + " must keep the start-up's compile threshold (docs/benchmarks.md)");
    }
  }

  @Test
  void everyLongRunningLauncherCompilesTheRelaysLibrariesEarlyAndQuietly() throws Exception {
    for (String launcher : List.of("cri-resmgr", "cri-resmgr-agent", "cri-resmgr-webhook")) {
      List<String> args = run(launcher, "");
      int quiet = args.indexOf("-XX:CompileCommand=quiet");
      assertTrue(quiet >= 0, launcher + " must not print its CompileCommands: " + args);
      for (String library : List.of("io/grpc", "io/netty")) {
        int at = args.indexOf("-XX:CompileCommand=CompileThresholdScaling," + library + "/*.*,0.1");
        assertTrue(
            at > quiet,
            launcher + " must compile " + library + " early, after 'quiet' (docs/benchmarks.md)");
      }
    }
  }

  @Test
  void everyLauncherRunsWithoutThePerfDataSampler() throws Exception {
    for (String launcher : List.of("cri-resmgr", "cri-resmgr-agent", "cri-resmgr-webhook")) {
      assertTrue(
          run(launcher, "").contains("-XX:-UsePerfData"),
          launcher + " must not sample perf data every 50 ms (docs/benchmarks.md)");
    }
  }

  @Test
  void theCHeapIsTrimmedOnlyWithAJavaThatHasTheOption() throws Exception {
    assertTrue(run("cri-resmgr", "", "17.0.15").contains("-XX:TrimNativeHeapInterval=10000"));
    assertTrue(run("cri-resmgr", "", "21.0.5").contains("-XX:TrimNativeHeapInterval=10000"));
    for (String older : List.of("17.0.10", "21.0.2", "18.0.2")) {
      assertFalse(
          run("cri-resmgr", "", older).stream().anyMatch(a -> a.contains("TrimNativeHeap")),
          "Java " + older + " does not start with the option");
    }
  }

  /** The last -Xmx, the one the JVM uses. */
  private static String heap(List<String> args) {
    return args.stream().filter(a -> a.startsWith("-Xmx")).reduce((a, b) -> b).orElse("none");
  }

  private List<String> run(String launcher, String javaOpts) throws Exception {
    return run(launcher, javaOpts, "");
  }

  /** Runs {@code launcher} with a fake java of {@code version} (its release file), if not empty. */
  private List<String> run(String launcher, String javaOpts, String version) throws Exception {
    Path bin = Files.createDirectories(dist.resolve("bin"));
    Files.createDirectories(dist.resolve("lib"));
    for (String name : List.of("cri-resmgr-launch.sh", launcher)) {
      Files.copy(ROOT.resolve("bin").resolve(name), bin.resolve(name));
    }
    Path jdk = Files.createDirectories(dist.resolve("jdk/bin"));
    Path release = dist.resolve("jdk/release");
    Files.deleteIfExists(release);
    if (!version.isEmpty()) {
      Files.writeString(release, "JAVA_VERSION=\"" + version + "\"\n");
    }
    Path java = jdk.resolve("java");
    Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(
        bin.resolve(launcher), PosixFilePermissions.fromString("rwx------"));
    ProcessBuilder builder = new ProcessBuilder(bin.resolve(launcher).toString());
    builder.environment().put("JAVA", java.toString());
    builder.environment().put("JAVA_OPTS", javaOpts);
    builder.redirectErrorStream(true);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), out);
    Files.delete(bin.resolve(launcher));
    Files.delete(bin.resolve("cri-resmgr-launch.sh"));
    return Arrays.asList(out.split("\n"));
  }
}
