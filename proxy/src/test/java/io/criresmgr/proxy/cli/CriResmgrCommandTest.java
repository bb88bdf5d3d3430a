package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.nri.NriPluginOptions;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CriResmgrCommandTest {
  @TempDir Path dir;

  @Test
  void defaultsAreThoseOfCriResmgr() {
    CliRun run = CliRun.of();
    assertEquals(0, run.status, run.err);
    assertEquals(
        new DaemonOptions(
            Path.of("/var/run/containerd/containerd.sock"),
            Path.of("/var/run/containerd/containerd.sock"),
            Path.of("/var/run/cri-resmgr/cri-resmgr.sock"),
            Path.of("/var/lib/cri-resmgr"),
            Optional.empty(),
            Optional.empty(),
            Optional.of("HUP"),
            Path.of(""),
            Path.of("/sys/fs/cgroup"),
            FlagValues.defaultPidFile("cri-resmgr", FlagValues.isRoot()),
            false,
            Duration.ZERO,
            false,
            Optional.of(Path.of("/var/run/cri-resmgr/cri-resmgr-config.sock")),
            Optional.empty(),
            Optional.empty()),
        run.options());
    assertEquals(Config.defaults(), run.store.current());
  }

  static Stream<Arguments> flags() {
    return Stream.of(
        flag(
            "runtime-socket",
            "/run/rt.sock",
            DaemonOptions::runtimeSocket,
            Path.of("/run/rt.sock")),
        flag("image-socket", "/run/img.sock", DaemonOptions::imageSocket, Path.of("/run/img.sock")),
        flag("relay-socket", "/run/r.sock", DaemonOptions::relaySocket, Path.of("/run/r.sock")),
        flag("relay-dir", "/tmp/state", DaemonOptions::relayDir, Path.of("/tmp/state")),
        flag("host-root", "/host", DaemonOptions::hostRoot, Path.of("/host")),
        flag("cgroup-mount", "/cg", DaemonOptions::cgroupMount, Path.of("/cg")),
        flag("pid-file", "/tmp/x.pid", DaemonOptions::pidFile, Path.of("/tmp/x.pid")),
        flag(
            "force-config-signal",
            "SIGUSR2",
            DaemonOptions::forceConfigSignal,
            Optional.of("USR2")),
        flag("allow-untested-runtimes", "true", DaemonOptions::allowUntestedRuntimes, true),
        flag(
            "config-socket",
            "unix:///run/c.sock",
            DaemonOptions::configSocket,
            Optional.of(Path.of("/run/c.sock"))),
        flag("config-socket", "disabled", DaemonOptions::configSocket, Optional.empty()),
        flag("config-socket", "", DaemonOptions::configSocket, Optional.empty()),
        flag("health-endpoint", ":8892", DaemonOptions::healthEndpoint, Optional.of(":8892")),
        flag(
            "health-endpoint",
            "[::1]:8892",
            DaemonOptions::healthEndpoint,
            Optional.of("[::1]:8892")),
        flag("health-endpoint", "", DaemonOptions::healthEndpoint, Optional.empty()));
  }

  private static Arguments flag(
      String name, String value, Function<DaemonOptions, Object> get, Object expected) {
    return Arguments.of(name, value, get, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flags")
  void everyFlagInEverySpelling(
      String name, String value, Function<DaemonOptions, Object> get, Object expected) {
    for (String[] args :
        new String[][] {
          {"--" + name, value},
          {"--" + name + "=" + value},
          {"-" + name, value},
          {"-" + name + "=" + value}
        }) {
      CliRun run = CliRun.of(args);
      assertEquals(0, run.status, run.err);
      assertEquals(expected, get.apply(run.options()), String.join(" ", args));
    }
  }

  @Test
  void booleanFlagsTakeOptionalValues() {
    assertTrue(CliRun.of("--allow-untested-runtimes").options().allowUntestedRuntimes());
    assertTrue(CliRun.of("-allow-untested-runtimes").options().allowUntestedRuntimes());
    assertFalse(CliRun.of("--allow-untested-runtimes=false").options().allowUntestedRuntimes());
    assertFalse(CliRun.of("-allow-untested-runtimes=false").options().allowUntestedRuntimes());
  }

  @Test
  void unixPrefixIsStrippedAndDashKept() {
    DaemonOptions o =
        CliRun.of(
                "--runtime-socket=unix:///run/crio/crio.sock",
                "-relay-socket",
                "unix:///run/cri-resmgr.sock",
                "--image-socket",
                "-")
            .options();
    assertEquals(Path.of("/run/crio/crio.sock"), o.runtimeSocket());
    assertEquals(Path.of("/run/cri-resmgr.sock"), o.relaySocket());
    assertEquals(Path.of("-"), o.imageSocket());
  }

  @Test
  void imageSocketDefaultsToRuntimeSocket() {
    DaemonOptions o = CliRun.of("-runtime-socket", "unix:///run/crio/crio.sock").options();
    assertEquals(Path.of("/run/crio/crio.sock"), o.imageSocket());
  }

  @ParameterizedTest
  @ValueSource(strings = {"SIGHUP", "HUP", "hup", "sighup"})
  void reloadSignalSpellings(String signal) {
    assertEquals(
        Optional.of("HUP"),
        CliRun.of("--force-config-signal", signal).options().forceConfigSignal());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "disable", "disabled", "DISABLED"})
  void reloadSignalCanBeDisabled(String signal) {
    assertEquals(
        Optional.empty(),
        CliRun.of("--force-config-signal=" + signal).options().forceConfigSignal());
  }

  @Test
  void nriModeIsOffByDefaultAndTakesItsSocketAndIndex() {
    assertEquals(Optional.empty(), CliRun.of().options().nri());
    assertEquals(
        Optional.of(NriPluginOptions.of("cri-resmgr", "90")), CliRun.of("--nri").options().nri());
    assertEquals(
        Optional.of(
            NriPluginOptions.of("cri-resmgr", "07").withSocket(Path.of("/run/nri/other.sock"))),
        CliRun.of("-nri=true", "--nri-socket", "unix:///run/nri/other.sock", "--nri-index=07")
            .options()
            .nri());
  }

  @Test
  void aBadNriIndexIsAUsageError() {
    CliRun run = CliRun.of("--nri", "--nri-index", "100");
    assertEquals(1, run.status);
    assertNull(run.options);
    assertTrue(
        run.err.startsWith(
            "cri-resmgr: --nri-index: NRI plugin index: '100' must be two digits, 00 to 99\nUsage:"),
        run.err);
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "8892", "127.0.0.1:70000", "127.0.0.1", "host:port", "a b:1"})
  void aBadHealthEndpointIsAUsageErrorNamingTheFlagTheValueAndWhatIsAllowed(String value) {
    CliRun run = CliRun.of("--health-endpoint", value);
    assertEquals(1, run.status);
    assertNull(run.options);
    assertTrue(
        run.err.startsWith(
            "cri-resmgr: --health-endpoint: \""
                + value
                + "\" is not [host]:port (such as :8892, 127.0.0.1:8892 or [::1]:8892; port 0 to"
                + " 65535, 0 for any free one), or \"\" for none\nUsage:"),
        run.err);
  }

  @Test
  void theHealthEndpointIsOffByDefault() {
    assertEquals(Optional.empty(), CliRun.of().options().healthEndpoint());
  }

  @Test
  void unknownSignalNamesAllowedValues() {
    CliRun run = CliRun.of("--force-config-signal", "SIGTERM");
    assertEquals(1, run.status);
    assertNull(run.options);
    assertTrue(
        run.err.startsWith(
            "cri-resmgr: --force-config-signal: unknown or unusable signal \"SIGTERM\", expected"
                + " SIGHUP or SIGUSR2 (SIG prefix optional, any case), or \"\" or \"disabled\" for"
                + " no reload signal\nUsage: cri-resmgr"),
        run.err);
  }

  @Test
  void forceAndFallbackAreMutuallyExclusive() throws Exception {
    Path file = Files.writeString(dir.resolve("a.cfg"), "");
    CliRun run = CliRun.of("--force-config", file.toString(), "--fallback-config", file.toString());
    assertEquals(1, run.status);
    assertTrue(
        run.err.startsWith(
            "cri-resmgr: --force-config and --fallback-config are mutually exclusive, give one\n"
                + "Usage: "),
        run.err);
  }

  @Test
  void forcedOrFallbackFileIsTheInitialConfiguration() throws Exception {
    Path file = Files.writeString(dir.resolve("a.cfg"), "dump:\n  Config: full:.*\n");
    for (String flag : new String[] {"--force-config", "-fallback-config"}) {
      CliRun run = CliRun.of(flag, file.toString());
      assertEquals("full:.*", run.store.current().dump().config());
    }
    assertEquals(Optional.of(file), CliRun.of("-force-config=" + file).options().forceConfig());
  }

  @Test
  void badConfigFileIsReportedOnceWithoutStackTrace() throws Exception {
    Path file = Files.writeString(dir.resolve("bad.cfg"), "dump:\n  Debug: loud\n");
    CliRun run = CliRun.of("--force-config", file.toString());
    assertEquals(1, run.status);
    assertNull(run.options);
    assertEquals(
        "cri-resmgr: " + file + ": dump.Debug: invalid value \"loud\": expected true or false\n",
        run.err);
  }

  @Test
  void unknownFlagsAndArgumentsAreUsageErrors() {
    CliRun run = CliRun.of("--no-such-flag");
    assertEquals(1, run.status);
    assertTrue(
        run.err.startsWith("cri-resmgr: Unknown option: '--no-such-flag'\nUsage: "), run.err);
    run = CliRun.of("-no-such-flag=1");
    assertEquals(1, run.status);
    assertTrue(run.err.contains("Unknown option: '-no-such-flag=1'"), run.err);
    run = CliRun.of("start");
    assertEquals(1, run.status);
    assertTrue(
        run.err.startsWith(
            "cri-resmgr: unexpected argument \"start\" (only help and config-help are accepted)\n"),
        run.err);
  }

  @Test
  void durationFlagsTakeGoDurations() {
    assertEquals(0, CliRun.of("--metrics-interval", "1m30s", "-rebalance-interval=0").status);
    CliRun run = CliRun.of("--metrics-interval", "soon");
    assertEquals(1, run.status);
    assertTrue(
        run.err.startsWith(
            "cri-resmgr: Invalid value for option '--metrics-interval': \"soon\": expected a"
                + " duration"),
        run.err);
  }

  @Test
  void acceptedButUnusedFlags() {
    CliRun run =
        CliRun.of(
            "--agent-socket",
            "/a.sock",
            "-disable-ui",
            "-cgroup-v2-dir",
            "/cg2",
            "--kubelet-cgroup-root",
            "/kube");
    assertEquals(0, run.status, run.err);
  }

  @Test
  void listPolicies() {
    CliRun run = CliRun.of("-list-policies");
    assertEquals(0, run.status);
    assertEquals(
        "Available policies:\n"
            + "  * none: A no-op policy, doing pretty much nothing.\n"
            + "  * memory-qos: No CPU or memory placement; memory QoS and memtierd classes only"
            + " (controllers).\n"
            + "  * template: Example policy: exclusive CPUs for whole-CPU containers, a shared"
            + " pool for the rest.\n"
            + "  * topology-aware: Places containers by hardware topology: exclusive, isolated,"
            + " shared and reserved CPUs and memory close to them.\n"
            + "  * memtier: Alias of topology-aware, with its own options section"
            + " policy.memtier.\n"
            + "  * balloons: Places containers in balloons of CPUs that inflate and deflate with"
            + " their requests.\n",
        run.out);
    assertNull(run.options);
  }

  @Test
  void version() {
    CliRun run = CliRun.of("--version");
    assertEquals(0, run.status);
    assertTrue(
        run.out.matches(
            """
            cri-resmgr version information:
              - version: \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?
              - build: \\S+
            """),
        run.out);
    assertEquals(run.out, CliRun.of("-version").out);
  }

  @Test
  void printConfigPrintsTheEffectiveConfiguration() throws Exception {
    CliRun run = CliRun.of("--print-config");
    assertEquals(0, run.status);
    assertEquals(Config.defaults(), ConfigLoader.builtIn().parse("out", run.out));
    Path file = Files.writeString(dir.resolve("a.cfg"), "logger:\n  Debug: cache\n");
    run = CliRun.of("-print-config", "-fallback-config", file.toString());
    assertEquals("cache", ConfigLoader.builtIn().parse("out", run.out).logger().debug());
    assertNull(run.options);
  }

  @Test
  void configHelp() {
    CliRun run = CliRun.of("config-help", "dump");
    assertEquals(0, run.status);
    assertTrue(run.out.startsWith("dump: Logging of CRI messages.\n"), run.out);
    run = CliRun.of("help");
    assertTrue(run.out.startsWith("policy: Placement policy.\n"), run.out);
    assertTrue(run.out.contains("\ninstrumentation: Metrics and tracing.\n"), run.out);
    assertTrue(
        run.out.contains(
            "  <policy name>       options of that policy, used when it is active; one of\n"
                + "                      none, memory-qos, template, topology-aware, memtier,"
                + " balloons\n"),
        run.out);
    assertTrue(
        run.out.contains(
            """

            blockio: Block I/O classes of the blockio controller (docs/controllers/blockio.md).
              Classes     <name>: list of Devices, Weight, ThrottleRead/WriteBps/IOPS
              NriClasses  classes NRI mode sends to the runtime (docs/nri.md)

            memory-qos:\s"""),
        run.out);
    run = CliRun.of("help", "bogus");
    assertEquals(1, run.status);
    assertTrue(
        run.err.startsWith("cri-resmgr: unknown configuration section \"bogus\", expected one of"),
        run.err);
  }

  @Test
  void helpFlag() {
    CliRun run = CliRun.of("-help");
    assertEquals(0, run.status);
    assertTrue(run.out.startsWith("Usage: cri-resmgr"), run.out);
    assertTrue(run.out.contains("--relay-socket=PATH"), run.out);
    assertTrue(run.out.contains("--health-endpoint=[HOST]:PORT"), run.out);
  }
}
