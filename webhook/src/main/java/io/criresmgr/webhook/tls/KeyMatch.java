package io.criresmgr.webhook.tls;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Map;

/**
 * Checks that a private key belongs to a certificate by signing a probe and verifying it with the
 * certificate's public key, so that a mismatch is reported at startup instead of as TLS handshake
 * failures in the API server's log.
 */
final class KeyMatch {
  private static final Map<String, String> SIGNATURES =
      Map.of(
          "RSA",
          "SHA256withRSA",
          "EC",
          "SHA256withECDSA",
          "Ed25519",
          "Ed25519",
          "EdDSA",
          "Ed25519");
  private static final byte[] PROBE = {'c', 'r', 'i', '-', 'r', 'e', 's', 'm', 'g', 'r'};

  private KeyMatch() {}

  /**
   * Returns if {@code key} matches {@code certificate} or cannot be checked (other algorithms).
   *
   * @throws IllegalArgumentException if it does not match
   */
  static void require(PrivateKey key, X509Certificate certificate) {
    String algorithm = SIGNATURES.get(key.getAlgorithm());
    if (algorithm == null) {
      return; // the TLS handshake will tell
    }
    boolean matches;
    try {
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(PROBE);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(PROBE);
      matches = verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      matches = false; // e.g. an EC key with an RSA certificate
    }
    if (!matches) {
      throw new IllegalArgumentException(
          "the private key does not belong to the certificate of "
              + certificate.getSubjectX500Principal());
    }
  }
}
