package io.criresmgr.proxy;

import io.criresmgr.cli.Cli;
import io.criresmgr.cli.LogbackProvider;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.proxy.cli.CriResmgrCommand;
import io.criresmgr.proxy.cli.DaemonLauncher;
import io.criresmgr.proxy.cli.DaemonStartup;
import io.criresmgr.proxy.cli.PlainDaemonStart;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.daemon.StartupWarmup;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The {@code cri-resmgr} command tree: the daemon's command with the subcommands it is given. The
 * program's {@code main} (module {@code command}, docs/architecture.md "Modules") passes them all;
 * this module's tests pass only what they need, since the subcommands' modules depend on this one.
 */
public final class CommandTree {
  /**
   * Netty's switch for its buffer allocator's flight-recorder events. With them on, the first
   * pooled buffer initializes the JVM's flight recorder metadata, a fifth of the CPU time the
   * daemon takes to serve (docs/benchmarks.md, "Start-up"). They are off unless the command line
   * sets the property ({@code -Dio.netty.jfr.enabled=true} to record them).
   */
  static final String NETTY_JFR = "io.netty.jfr.enabled";

  private CommandTree() {}

  /**
   * Runs the command line with {@code subcommands} in this process and exits with its status.
   *
   * @param subcommands makes the picocli {@code @Command} objects (implementing {@code
   *     Callable<Integer>}; Go-style flags and the error handling of {@link Cli} apply to them
   *     too). Called once the logging binding is chosen: a subcommand's static logger made earlier
   *     would bind SLF4J by its service lookup, which the start-up avoids (docs/benchmarks.md).
   */
  public static void runAndExit(String[] args, Supplier<List<Object>> subcommands) {
    LogbackProvider.select();
    StartupWarmup.begin();
    if (System.getProperty(NETTY_JFR) == null) {
      System.setProperty(NETTY_JFR, "false");
    }
    Charset charset = Charset.defaultCharset();
    int status =
        run(
            args,
            new PrintWriter(System.out, false, charset),
            new PrintWriter(System.err, false, charset),
            Daemon::run,
            subcommands);
    System.exit(status);
  }

  /**
   * Runs the command line with {@code launcher} starting the daemon and {@code subcommands} (as for
   * {@link #runAndExit}); returns the exit status.
   */
  public static int run(
      String[] args,
      PrintWriter out,
      PrintWriter err,
      DaemonLauncher launcher,
      List<Object> subcommands) {
    return run(args, out, err, launcher, () -> subcommands);
  }

  /**
   * {@link #run(String[], PrintWriter, PrintWriter, DaemonLauncher, List)} with the subcommands
   * made once the daemon's own command is built: that is picocli's reflection, which then overlaps
   * the logging set-up the first subcommand's logger waits for (begun by {@link StartupWarmup}).
   */
  static int run(
      String[] args,
      PrintWriter out,
      PrintWriter err,
      DaemonLauncher launcher,
      Supplier<List<Object>> subcommands) {
    try {
      // The daemon's usual command line skips picocli's model of the command (ADR 0011), and
      // begins the runtime's connection before the policies (and with them logging) are set up.
      OptionalInt plain =
          PlainDaemonStart.run(
              List.of(args), () -> startup(BuiltInPolicies.registry(), launcher), err);
      if (plain.isPresent()) {
        return plain.getAsInt();
      }
      PolicyRegistry policies = BuiltInPolicies.registry();
      return Cli.execute(
          commandLine(out, err, policies, startup(policies, launcher), subcommands), args);
    } catch (RuntimeException e) {
      // Cli reports every failure of the command itself; this is for a broken command setup.
      err.println(CriResmgrCommand.NAME + ": unexpected error: " + e);
      e.printStackTrace(err);
      err.flush();
      return Cli.ERROR_EXIT;
    }
  }

  private static DaemonStartup startup(PolicyRegistry policies, DaemonLauncher launcher) {
    return new DaemonStartup(new ConfigLoader(policies), launcher, System.getenv());
  }

  private static CommandLine commandLine(
      PrintWriter out,
      PrintWriter err,
      PolicyRegistry policies,
      DaemonStartup startup,
      Supplier<List<Object>> subcommands) {
    CriResmgrCommand command = new CriResmgrCommand(policies, startup);
    CommandLine cl =
        Cli.commandLine(command, subcommands, out, err, ConfigException.class::isInstance);
    command.addKlogFlags(cl.getCommandSpec());
    return cl;
  }
}
