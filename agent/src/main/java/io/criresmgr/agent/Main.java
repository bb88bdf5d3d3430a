package io.criresmgr.agent;

import io.criresmgr.cli.GoStyleArgs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.Map;
import picocli.CommandLine;

/** Entry point of {@code cri-resmgr-agent}. */
public final class Main {
  /** Exit status of a usage error or a failure to start. */
  static final int ERROR_EXIT = 1;

  private Main() {}

  /** Runs the agent until the process is stopped; exits 1 if it cannot start. */
  public static void main(String[] args) {
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
    CommandLine cl = new CommandLine(new AgentCommand(env, runner));
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(
        (e, ignored) -> {
          err.println(AgentCommand.NAME + ": " + e.getMessage());
          cl.usage(err);
          return ERROR_EXIT;
        });
    cl.setExecutionExceptionHandler(
        (e, ignored, parsed) -> {
          if (e instanceof IOException) {
            err.println(AgentCommand.NAME + ": " + e.getMessage());
          } else {
            err.println(AgentCommand.NAME + ": unexpected error: " + e);
            e.printStackTrace(err);
          }
          return ERROR_EXIT;
        });
    int status = cl.execute(GoStyleArgs.normalize(cl, args));
    out.flush();
    err.flush();
    return status;
  }
}
