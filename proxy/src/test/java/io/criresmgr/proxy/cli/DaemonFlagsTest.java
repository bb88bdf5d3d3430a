package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cli.Cli;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The plain command line read without picocli ({@link DaemonFlags#parsePlain}) must give exactly
 * what picocli's parse of the same command line gives, and must leave everything else to picocli.
 */
class DaemonFlagsTest {
  @TempDir Path dir;

  /** What picocli's parse of a command line started the daemon with, or its error. */
  private record PicocliRun(int status, @Nullable DaemonOptions options, String err) {}

  private PicocliRun picocli(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    DaemonOptions[] seen = new DaemonOptions[1];
    PolicyRegistry policies = BuiltInPolicies.registry();
    DaemonStartup startup =
        new DaemonStartup(
            new ConfigLoader(policies),
            (options, store, early) -> {
              seen[0] = options;
              return 0;
            },
            Map.of());
    CriResmgrCommand command = new CriResmgrCommand(policies, startup);
    CommandLine cl =
        Cli.commandLine(
            command,
            List.of(),
            new PrintWriter(out),
            new PrintWriter(err),
            ConfigException.class::isInstance);
    command.addKlogFlags(cl.getCommandSpec());
    int status = Cli.execute(cl, args.toArray(String[]::new));
    return new PicocliRun(status, seen[0], err.toString());
  }

  private static Optional<DaemonOptions> plain(List<String> args) {
    try {
      return DaemonFlags.parsePlain(args).map(f -> f.toOptions(CriResmgrCommand.NAME));
    } catch (DaemonFlags.UsageException e) {
      return Optional.empty();
    }
  }

  /** Values to try per flag, well-formed and not, with the spellings users write. */
  private Map<String, List<String>> samples() throws IOException {
    String config = Files.writeString(dir.resolve("a.cfg"), "").toString();
    List<String> paths = List.of("/run/x.sock", "unix:///run/y.sock", "", "rel/dir", "/a b");
    List<String> durations = List.of("0", "15s", "1m30s", "-1s", "soon", "1h");
    List<String> bools = List.of("true", "false", "TRUE", "yes", "");
    Map<String, List<String>> samples = new java.util.HashMap<>();
    for (String f :
        List.of(
            "runtime-socket",
            "relay-socket",
            "relay-dir",
            "nri-socket",
            "host-root",
            "cgroup-mount",
            "pid-file",
            "agent-socket",
            "cgroup-v2-dir",
            "kubelet-cgroup-root")) {
      samples.put(f, paths);
    }
    samples.put("image-socket", List.of("default", "/run/img.sock", "unix:///run/img.sock"));
    samples.put("config-socket", List.of("disabled", "", "/run/c.sock", "unix:///run/c.sock"));
    samples.put("nri-index", List.of("90", "07", "7", "100", "ab"));
    samples.put(
        "health-endpoint", List.of(":8892", "127.0.0.1:8892", "[::1]:8892", "", "abc", ":70000"));
    samples.put("force-config", List.of(config, ""));
    samples.put("fallback-config", List.of(config, ""));
    samples.put("force-config-signal", List.of("SIGHUP", "usr2", "SIGTERM", "disabled", ""));
    samples.put("rebalance-interval", durations);
    samples.put("metrics-interval", durations);
    for (String f : List.of("nri", "allow-untested-runtimes", "disable-policy-switch", "ui")) {
      samples.put(f.equals("ui") ? "disable-ui" : f, bools);
    }
    return samples;
  }

  /** One flag with a value, in one of the spellings of Go's flag package and picocli. */
  private static List<String> spell(String flag, String value, boolean bool, Random random) {
    String dashes = random.nextBoolean() ? "--" : "-";
    if (bool && value.equals("true") && random.nextBoolean()) {
      return List.of(dashes + flag);
    }
    return random.nextBoolean()
        ? List.of(dashes + flag + "=" + value)
        : List.of(dashes + flag, value);
  }

  @Test
  void whereThePlainParseAcceptsPicocliGivesTheSameOptions() throws IOException {
    Map<String, List<String>> samples = samples();
    List<String> flags = new ArrayList<>(new TreeSet<>(samples.keySet()));
    Random random = new Random(17);
    int accepted = 0;
    for (int run = 0; run < 400; run++) {
      Collections.shuffle(flags, random);
      List<String> args = new ArrayList<>();
      for (String flag : flags.subList(0, random.nextInt(6))) {
        List<String> values = samples.get(flag);
        String value = values.get(random.nextInt(values.size()));
        args.addAll(spell(flag, value, values.contains("TRUE"), random));
      }
      Optional<DaemonOptions> plain = plain(args);
      if (plain.isEmpty()) {
        continue;
      }
      accepted++;
      PicocliRun picocli = picocli(args);
      assertEquals(0, picocli.status(), args + ": " + picocli.err());
      assertEquals(picocli.options(), plain.get(), args.toString());
    }
    assertTrue(accepted > 100, "only " + accepted + " of 400 command lines were plain");
  }

  @Test
  void everyPlainFlagIsAnOptionOfTheCommandWithTheSameArity() {
    CommandLine cl =
        Cli.commandLine(
            new CriResmgrCommand(
                BuiltInPolicies.registry(),
                new DaemonStartup(
                    new ConfigLoader(BuiltInPolicies.registry()), (o, s, early) -> 0, Map.of())),
            List.of(),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()),
            e -> false);
    Set<String> plainFlags = new TreeSet<>();
    for (OptionSpec option : cl.getCommandSpec().options()) {
      String name = option.longestName().substring(2);
      boolean plain =
          DaemonFlags.parsePlain(List.of("--" + name + "=x")).isPresent()
              || DaemonFlags.parsePlain(List.of("--" + name + "=0")).isPresent();
      boolean plainBool = DaemonFlags.parsePlain(List.of("--" + name)).isPresent();
      if (plain || plainBool) {
        plainFlags.add(name);
        // A value flag needs its value; a boolean takes none (arity 0..1).
        assertEquals(plainBool, option.arity().min() == 0, name);
      }
    }
    assertEquals(23, plainFlags.size(), plainFlags.toString());
  }

  @Test
  void commandLinesThatDoSomethingElseAreLeftToPicocli() {
    for (List<String> args :
        List.of(
            List.of("--help"),
            List.of("-h"),
            List.of("--version"),
            List.of("--print-config"),
            List.of("--list-policies"),
            List.of("--reset-policy"),
            List.of("-v=2"),
            List.of("-logtostderr"),
            List.of("config-help"),
            List.of("simulate", "x"),
            List.of("@args"),
            List.of("--relay-dir", "@args"),
            List.of("--force-config", "simulate"),
            List.of("--relay-dir", "--nri"),
            List.of("--relay-dir"),
            List.of("--relay-dir=/a", "--relay-dir=/b"),
            List.of("--nri", "false"),
            List.of("--nri=yes"),
            List.of("--rebalance-interval=-1s"),
            List.of("---relay-dir=/a"),
            List.of("--", "--relay-dir=/a"))) {
      assertFalse(DaemonFlags.parsePlain(args).isPresent(), args.toString());
    }
  }

  @Test
  void theUnitFilesCommandLinesArePlain() {
    assertEquals(
        Optional.of(Path.of("/etc/cri-resmgr/fallback.cfg")),
        plain(List.of("--fallback-config", "/etc/cri-resmgr/fallback.cfg"))
            .orElseThrow()
            .fallbackConfig());
    DaemonOptions nri =
        plain(List.of("-nri", "-nri-index=10", "-relay-dir", "/var/lib/x")).orElseThrow();
    assertEquals("10", nri.nri().orElseThrow().index());
    assertEquals(Path.of("/var/lib/x"), nri.relayDir());
    assertEquals(
        Duration.ofSeconds(90),
        plain(List.of("--rebalance-interval=1m30s")).orElseThrow().rebalanceInterval());
    // The chart's NRI DaemonSet (packaging/helm/cri-resmgr/templates/nri-daemonset.yaml).
    assertEquals(
        Optional.of(":8892"),
        plain(List.of("--nri", "--nri-index=90", "--health-endpoint=:8892"))
            .orElseThrow()
            .healthEndpoint());
  }
}
