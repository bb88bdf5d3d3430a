package io.criresmgr.webhook;

import io.criresmgr.cli.GoStyleArgs;
import io.criresmgr.webhook.server.WebhookServer;
import io.criresmgr.webhook.tls.CredentialsException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import picocli.CommandLine;

/** Entry point of {@code cri-resmgr-webhook}. */
public final class Main {
  /** Exit status of a usage error or a failure to start. */
  static final int ERROR_EXIT = 1;

  private Main() {}

  /** Runs the webhook until the process is stopped; exits 1 if it cannot start. */
  public static void main(String[] args) {
    Charset charset = Charset.defaultCharset();
    PrintWriter out = new PrintWriter(System.out, false, charset);
    PrintWriter err = new PrintWriter(System.err, false, charset);
    System.exit(run(args, out, err, Main::serveUntilShutdown));
  }

  /**
   * Parses {@code args} (Go-style single-dash flags included), starts the server and hands it to
   * {@code runner}; returns the exit status. Errors are printed once as {@code cri-resmgr-webhook:
   * message}.
   */
  static int run(String[] args, PrintWriter out, PrintWriter err, Consumer<WebhookServer> runner) {
    CommandLine cl = new CommandLine(new WebhookCommand(runner));
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(
        (e, ignored) -> {
          err.println(WebhookCommand.NAME + ": " + e.getMessage());
          cl.usage(err);
          return ERROR_EXIT;
        });
    cl.setExecutionExceptionHandler(
        (e, ignored, parsed) -> {
          if (e instanceof CredentialsException || e instanceof IOException) {
            err.println(WebhookCommand.NAME + ": " + e.getMessage());
          } else {
            err.println(WebhookCommand.NAME + ": unexpected error: " + e);
            e.printStackTrace(err);
          }
          return ERROR_EXIT;
        });
    int status = cl.execute(GoStyleArgs.normalize(cl, args));
    out.flush();
    err.flush();
    return status;
  }

  /** Keeps serving until the JVM shuts down (SIGTERM, SIGINT), which closes the server. */
  private static void serveUntilShutdown(WebhookServer server) {
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "webhook-shutdown"));
    try {
      new CountDownLatch(1).await(); // the JVM ends this thread when the shutdown hook is done
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
