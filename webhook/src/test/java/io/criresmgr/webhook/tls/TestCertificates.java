package io.criresmgr.webhook.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed server certificates made at test time with the running JDK's {@code keytool} (always
 * there, unlike openssl), written as the PEM files the webhook reads.
 *
 * @param certFile the PEM certificate
 * @param keyFile the PEM PKCS#8 private key
 * @param certificate the certificate, for clients to trust
 */
public record TestCertificates(Path certFile, Path keyFile, X509Certificate certificate) {
  private static final char[] PASSWORD = "changeit".toCharArray();

  /**
   * Generates a key pair of {@code keyAlgorithm} ({@code RSA} or {@code EC}) and a certificate for
   * {@code localhost} and {@code 127.0.0.1} into {@code dir}.
   */
  public static TestCertificates generate(Path dir, String keyAlgorithm)
      throws IOException, GeneralSecurityException, InterruptedException {
    Path store = dir.resolve(keyAlgorithm + ".p12");
    keytool(
        "-genkeypair",
        "-alias",
        "webhook",
        "-keyalg",
        keyAlgorithm,
        "-dname",
        "CN=cri-resmgr-webhook.cri-resmgr.svc",
        "-ext",
        "SAN=dns:localhost,ip:127.0.0.1",
        "-validity",
        "2",
        "-keystore",
        store.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        new String(PASSWORD),
        "-keypass",
        new String(PASSWORD));
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, PASSWORD);
    }
    X509Certificate certificate = (X509Certificate) keys.getCertificate("webhook");
    Key key = keys.getKey("webhook", PASSWORD);
    Path certFile =
        write(dir.resolve(keyAlgorithm + ".crt"), "CERTIFICATE", certificate.getEncoded());
    Path keyFile = write(dir.resolve(keyAlgorithm + ".key"), "PRIVATE KEY", key.getEncoded());
    return new TestCertificates(certFile, keyFile, certificate);
  }

  /** A client context trusting only this certificate. */
  public SSLContext trustingClient() throws GeneralSecurityException, IOException {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    trusted.setCertificateEntry("webhook", certificate);
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    List<String> command = new ArrayList<>(List.of(keytool.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(Duration.ofMinutes(1).toSeconds(), TimeUnit.SECONDS)
        || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("keytool failed: " + command + "\n" + output);
    }
  }

  private static Path write(Path file, String type, byte[] der) throws IOException {
    String base64 = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    Files.writeString(
        file, "-----BEGIN " + type + "-----\n" + base64 + "\n-----END " + type + "-----\n");
    return file;
  }
}
