package io.criresmgr.webhook;

import io.criresmgr.webhook.admission.AdmissionReviewer;
import io.criresmgr.webhook.server.WebhookServer;
import io.criresmgr.webhook.tls.CredentialsException;
import io.criresmgr.webhook.tls.ServerCredentials;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cri-resmgr-webhook}: its flags (those of cri-resmgr's webhook) and what it runs. */
@Command(
    name = WebhookCommand.NAME,
    usageHelpAutoWidth = true,
    description =
        "Kubernetes mutating admission webhook: annotates every pod with its containers'"
            + " resource requests and limits for cri-resmgr.")
final class WebhookCommand implements Callable<Integer> {
  static final String NAME = "cri-resmgr-webhook";

  // Injected by picocli; the placeholder keeps the field non-null before that.
  @Spec CommandSpec spec = CommandSpec.create();

  private int port = 443;

  @Option(
      names = "--cert-file",
      required = true,
      description = "PEM file with the server certificate, then any intermediate certificates.")
  Path certFile = Path.of("");

  @Option(
      names = "--key-file",
      required = true,
      description = "PEM file with the certificate's private key (PKCS#8, PKCS#1 RSA or SEC1 EC).")
  Path keyFile = Path.of("");

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help and exit.")
  boolean help;

  private final Consumer<WebhookServer> runner;

  @Option(
      names = "--port",
      defaultValue = "443",
      description = "HTTPS port to listen on, 0 for any free port (default ${DEFAULT-VALUE}).")
  void port(int value) {
    if (value < 0 || value > 65535) {
      throw new ParameterException(
          spec.commandLine(), "invalid -port " + value + ": expected 0 to 65535");
    }
    port = value;
  }

  /** {@code runner} keeps the started server running as long as the process should. */
  WebhookCommand(Consumer<WebhookServer> runner) {
    this.runner = runner;
  }

  @Override
  public Integer call() throws CredentialsException, GeneralSecurityException, IOException {
    SSLContext tls = ServerCredentials.load(certFile, keyFile).sslContext();
    try (WebhookServer server =
        WebhookServer.start(new InetSocketAddress(port), tls, new AdmissionReviewer())) {
      runner.accept(server);
    }
    return 0;
  }
}
