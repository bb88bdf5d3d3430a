package io.criresmgr.webhook;

import io.criresmgr.cli.Cli;
import io.criresmgr.cli.LogbackProvider;
import io.criresmgr.webhook.server.WebhookServer;
import io.criresmgr.webhook.tls.CredentialsException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/** Entry point of {@code cri-resmgr-webhook}. */
public final class Main {
  /** Exit status of a usage error or a failure to start. */
  static final int ERROR_EXIT = Cli.ERROR_EXIT;

  private Main() {}

  /** Runs the webhook until the process is stopped; exits 1 if it cannot start. */
  public static void main(String[] args) {
    LogbackProvider.select();
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
    return Cli.execute(
        Cli.commandLine(
            new WebhookCommand(runner),
            List.of(),
            out,
            err,
            e -> e instanceof CredentialsException || e instanceof IOException),
        args);
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
