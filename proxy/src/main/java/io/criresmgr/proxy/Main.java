package io.criresmgr.proxy;

import io.criresmgr.cli.Cli;
import io.criresmgr.cli.LogbackProvider;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.proxy.cli.CriResmgrCommand;
import io.criresmgr.proxy.cli.DaemonLauncher;
import io.criresmgr.proxy.cli.DaemonStartup;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.daemon.StartupWarmup;
import io.criresmgr.proxy.scenario.SimulateCommand;
import io.criresmgr.sim.SimRuntimeCommand;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.List;
import picocli.CommandLine;

/** Entry point of {@code cri-resmgr}. */
public final class Main {
  /**
   * Netty's switch for its buffer allocator's flight-recorder events. With them on, the first
   * pooled buffer initializes the JVM's flight recorder metadata, a fifth of the CPU time the
   * daemon takes to serve (docs/benchmarks.md, "Start-up"). They are off unless the command line
   * sets the property ({@code -Dio.netty.jfr.enabled=true} to record them).
   */
  static final String NETTY_JFR = "io.netty.jfr.enabled";

  private Main() {}

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
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
            Daemon::run);
    System.exit(status);
  }

  /** Runs the command line with {@code launcher} starting the daemon; returns the exit status. */
  public static int run(String[] args, PrintWriter out, PrintWriter err, DaemonLauncher launcher) {
    try {
      return Cli.execute(commandLine(out, err, launcher), args);
    } catch (RuntimeException e) {
      // Cli reports every failure of the command itself; this is for a broken command setup.
      err.println(CriResmgrCommand.NAME + ": unexpected error: " + e);
      e.printStackTrace(err);
      err.flush();
      return Cli.ERROR_EXIT;
    }
  }

  /** The whole command tree: {@code cri-resmgr} and its subcommands. */
  static CommandLine commandLine(PrintWriter out, PrintWriter err, DaemonLauncher launcher) {
    PolicyRegistry policies = BuiltInPolicies.registry();
    DaemonStartup startup =
        new DaemonStartup(new ConfigLoader(policies), launcher, System.getenv());
    CriResmgrCommand command = new CriResmgrCommand(policies, startup);
    CommandLine cl =
        Cli.commandLine(command, subcommands(), out, err, ConfigException.class::isInstance);
    command.addKlogFlags(cl.getCommandSpec());
    return cl;
  }

  /** The subcommands of {@code cri-resmgr}. */
  private static List<Object> subcommands() {
    // SUBCOMMANDS: one line per picocli @Command class (implementing Callable<Integer>); Go-style
    // flags and the error handling of Cli apply to them too.
    return List.of(new SimRuntimeCommand(), new SimulateCommand());
  }
}
