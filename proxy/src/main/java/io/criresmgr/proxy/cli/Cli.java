package io.criresmgr.proxy.cli;

import io.criresmgr.cli.GoStyleArgs;
import io.criresmgr.proxy.config.ConfigException;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Runs a picocli command line the way cri-resmgr's users expect: Go-style flags, errors printed
 * once as {@code cri-resmgr: message} (with the usage for flag errors, without stack traces for
 * configuration errors), exit status 0 on success and 1 on any error.
 */
public final class Cli {
  /** Exit status of a usage or configuration error. */
  public static final int ERROR_EXIT = 1;

  private Cli() {}

  /**
   * A command line for {@code command} with {@code subcommands} (picocli {@code @Command} objects),
   * printing to {@code out} and {@code err}. Subcommands must be given here: picocli applies the
   * output and error handling only to subcommands present when they are set.
   */
  public static CommandLine commandLine(
      Object command, List<?> subcommands, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(command);
    subcommands.forEach(cl::addSubcommand);
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(usageErrors());
    cl.setExecutionExceptionHandler(failures());
    return cl;
  }

  /** Parses {@code args} (Go-style spellings included) and runs the selected command. */
  public static int execute(CommandLine cl, String[] args) {
    int status = cl.execute(GoStyleArgs.normalize(cl, args));
    cl.getOut().flush();
    cl.getErr().flush();
    return status;
  }

  private static IParameterExceptionHandler usageErrors() {
    return (e, args) -> {
      CommandLine cl = e.getCommandLine();
      cl.getErr().println(cl.getCommandSpec().qualifiedName() + ": " + e.getMessage());
      cl.usage(cl.getErr());
      return ERROR_EXIT;
    };
  }

  private static IExecutionExceptionHandler failures() {
    return (Exception e, CommandLine cl, ParseResult parsed) -> {
      PrintWriter err = cl.getErr();
      if (e instanceof ConfigException) {
        err.println(cl.getCommandSpec().qualifiedName() + ": " + e.getMessage());
      } else {
        err.println(cl.getCommandSpec().qualifiedName() + ": unexpected error: " + e);
        e.printStackTrace(err);
      }
      return ERROR_EXIT;
    };
  }
}
