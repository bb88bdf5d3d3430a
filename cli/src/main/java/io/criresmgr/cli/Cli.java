package io.criresmgr.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Runs a picocli command line the way cri-resmgr's users expect, for all three programs: Go-style
 * flags, errors printed once as {@code <program>: message} (with the usage for flag errors, without
 * a stack trace for the errors a program expects, e.g. a bad configuration file), exit status 0 on
 * success and 1 on any error.
 */
public final class Cli {
  /** Exit status of a usage or configuration error. */
  public static final int ERROR_EXIT = 1;

  private Cli() {}

  /**
   * A command line for {@code command} with {@code subcommands} (picocli {@code @Command} objects),
   * printing to {@code out} and {@code err}; failures that are {@code expected} are printed as
   * their message alone, others with a stack trace. Subcommands must be given here: picocli applies
   * the output and error handling only to subcommands present when they are set.
   */
  public static CommandLine commandLine(
      Object command,
      List<?> subcommands,
      PrintWriter out,
      PrintWriter err,
      Predicate<Exception> expected) {
    return commandLine(command, () -> subcommands, out, err, expected);
  }

  /**
   * {@link #commandLine(Object, List, PrintWriter, PrintWriter, Predicate)} with the subcommands
   * made once {@code command}'s own model is built (picocli's reflection), so that work can overlap
   * what the subcommands' construction waits for.
   */
  public static CommandLine commandLine(
      Object command,
      Supplier<? extends List<?>> subcommands,
      PrintWriter out,
      PrintWriter err,
      Predicate<Exception> expected) {
    CommandLine cl = new CommandLine(command);
    subcommands.get().forEach(cl::addSubcommand);
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(usageErrors());
    cl.setExecutionExceptionHandler(failures(expected));
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

  private static IExecutionExceptionHandler failures(Predicate<Exception> expected) {
    return (Exception e, CommandLine cl, ParseResult parsed) ->
        reportFailure(cl.getCommandSpec().qualifiedName(), e, cl.getErr(), expected);
  }

  /**
   * Prints the failure {@code e} of {@code program} as a command's failures are printed: {@code
   * <program>: message} if it is {@code expected}, else with a stack trace; returns {@link
   * #ERROR_EXIT}. For a program that ran without picocli's parse.
   */
  public static int reportFailure(
      String program, Exception e, PrintWriter err, Predicate<Exception> expected) {
    if (expected.test(e)) {
      err.println(program + ": " + e.getMessage());
    } else {
      err.println(program + ": unexpected error: " + e);
      e.printStackTrace(err);
    }
    return ERROR_EXIT;
  }
}
