package io.criresmgr.webhook.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A TLS server identity read from a PEM certificate file (the server's certificate first, then any
 * intermediates) and a PEM private key file, as {@code tls.LoadX509KeyPair} does for cri-resmgr's
 * webhook.
 *
 * @param chain the certificate chain, the server's own certificate first
 * @param key the private key of the first certificate
 */
public record ServerCredentials(List<X509Certificate> chain, PrivateKey key) {
  // The key store lives only in memory; its password protects nothing.
  private static final char[] PASSWORD = "in-memory".toCharArray();

  /** Copies the chain and checks that it is not empty and that the key is the certificate's. */
  public ServerCredentials {
    chain = List.copyOf(chain);
    Objects.requireNonNull(key, "key");
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("no certificate");
    }
    KeyMatch.require(key, chain.get(0));
  }

  /**
   * The credentials in {@code certFile} and {@code keyFile}.
   *
   * @throws CredentialsException naming the file that cannot be read or used and why
   */
  public static ServerCredentials load(Path certFile, Path keyFile) throws CredentialsException {
    List<X509Certificate> chain = certificates(certFile);
    PrivateKey key = key(keyFile);
    try {
      return new ServerCredentials(chain, key);
    } catch (IllegalArgumentException e) {
      throw new CredentialsException(
          "key file " + keyFile + " and certificate file " + certFile + ": " + e.getMessage(), e);
    }
  }

  /** A TLS server context presenting these credentials. */
  public SSLContext sslContext() throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot create an empty key store", e);
    }
    store.setKeyEntry("webhook", key, PASSWORD, chain.toArray(X509Certificate[]::new));
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, PASSWORD);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  private static List<X509Certificate> certificates(Path file) throws CredentialsException {
    List<X509Certificate> chain = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (PemBlock block : blocks(file, "certificate")) {
        if (block.type().equals("CERTIFICATE")) {
          chain.add(
              (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
        }
      }
    } catch (CertificateException e) {
      throw new CredentialsException("certificate file " + file + ": " + e.getMessage(), e);
    }
    if (chain.isEmpty()) {
      throw new CredentialsException(
          "certificate file " + file + ": no -----BEGIN CERTIFICATE----- block");
    }
    return chain;
  }

  private static PrivateKey key(Path file) throws CredentialsException {
    List<PemBlock> keys =
        blocks(file, "key").stream().filter(b -> b.type().endsWith("PRIVATE KEY")).toList();
    if (keys.size() != 1) {
      throw new CredentialsException(
          "key file " + file + ": expected one PRIVATE KEY block, found " + keys.size());
    }
    try {
      return PrivateKeys.of(keys.get(0));
    } catch (IllegalArgumentException e) {
      throw new CredentialsException("key file " + file + ": " + e.getMessage(), e);
    }
  }

  private static List<PemBlock> blocks(Path file, String what) throws CredentialsException {
    try {
      return PemBlock.parse(Files.readString(file, StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new CredentialsException("cannot read " + what + " file " + file + ": " + e, e);
    } catch (IllegalArgumentException e) {
      throw new CredentialsException(what + " file " + file + ": " + e.getMessage(), e);
    }
  }
}
