package io.criresmgr.agent;

import io.criresmgr.cli.Cli;
import io.criresmgr.cli.LogbackProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;

/** Entry point of {@code cri-resmgr-agent}. */
public final class Main {
  /** Exit status of a usage error or a failure to start. */
  static final int ERROR_EXIT = Cli.ERROR_EXIT;

  private Main() {}

  /** Runs the agent until the process is stopped; exits 1 if it cannot start. */
  public static void main(String[] args) {
    LogbackProvider.select();
    Charset charset = Charset.defaultCharset();
    PrintWriter out = new PrintWriter(System.out, false, charset);
    PrintWriter err = new PrintWriter(System.err, false, charset);
    System.exit(run(args, System.getenv(), out, err, AgentRunner::runUntilShutdown));
  }

  /**
   * Parses {@code args} (Go-style single-dash flags included) with NODE_NAME from {@code env} and
   * hands the options to {@code runner}; returns the exit status. Errors are printed once as {@code
   * cri-resmgr-agent: message}.
   */
  static int run(
      String[] args,
      Map<String, String> env,
      PrintWriter out,
      PrintWriter err,
      AgentCommand.Runner runner) {
    return Cli.execute(
        Cli.commandLine(
            new AgentCommand(env, runner), List.of(), out, err, IOException.class::isInstance),
        args);
  }
}
