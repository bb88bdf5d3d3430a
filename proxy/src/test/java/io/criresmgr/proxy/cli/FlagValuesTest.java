package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cli.Cli;
import io.criresmgr.cli.GoStyleArgs;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class FlagValuesTest {
  @Test
  void socketPathsLoseTheUnixScheme() {
    assertEquals("/run/x.sock", FlagValues.socketPath("unix:///run/x.sock"));
    assertEquals("/run/x.sock", FlagValues.socketPath("/run/x.sock"));
    assertEquals("-", FlagValues.socketPath("-"));
  }

  @Test
  void reloadSignals() {
    assertEquals(Optional.of("HUP"), FlagValues.reloadSignal("SIGHUP"));
    assertEquals(Optional.of("USR2"), FlagValues.reloadSignal("usr2"));
    assertEquals(Optional.empty(), FlagValues.reloadSignal("Disable"));
    assertEquals(Optional.empty(), FlagValues.reloadSignal(" "));
    assertThrows(IllegalArgumentException.class, () -> FlagValues.reloadSignal("USR1"));
    assertThrows(IllegalArgumentException.class, () -> FlagValues.reloadSignal("9"));
  }

  @Test
  void pidFileDependsOnUser() {
    assertEquals(Path.of("/var/run/cri-resmgr.pid"), FlagValues.defaultPidFile("cri-resmgr", true));
    assertEquals(Path.of("/tmp/cri-resmgr.pid"), FlagValues.defaultPidFile("cri-resmgr", false));
  }

  @Test
  void goStyleArgsRewriteOnlyKnownLongOptionsNotValues() {
    DaemonStartup startup =
        new DaemonStartup(ConfigLoader.builtIn(), (options, store, early) -> 0, Map.of());
    CommandLine cl =
        Cli.commandLine(
            new CriResmgrCommand(BuiltInPolicies.registry(), startup),
            List.of(),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()),
            ConfigException.class::isInstance);
    assertArrayEquals(
        new String[] {
          "--relay-dir", "-relay-socket", "--force-config=-x", "-h", "-bogus", "--", "-print-config"
        },
        GoStyleArgs.normalize(
            cl,
            new String[] {
              "-relay-dir",
              "-relay-socket",
              "-force-config=-x",
              "-h",
              "-bogus",
              "--",
              "-print-config"
            }));
  }
}
