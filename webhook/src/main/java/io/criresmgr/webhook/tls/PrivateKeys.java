package io.criresmgr.webhook.tls;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.List;

/**
 * Private keys from PEM blocks: PKCS#8 {@code PRIVATE KEY} (RSA, EC, Ed25519), PKCS#1 {@code RSA
 * PRIVATE KEY} and SEC1 {@code EC PRIVATE KEY} with a named curve. The last two are wrapped into
 * PKCS#8, the only encoding the JDK's key factories read. Encrypted keys are refused.
 */
final class PrivateKeys {
  /** The PKCS#8 AlgorithmIdentifier of rsaEncryption (1.2.840.113549.1.1.1) with NULL params. */
  private static final byte[] RSA_ALGORITHM =
      Der.encode(
          Der.SEQUENCE,
          Der.encode(Der.OID, bytes(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01)),
          Der.encode(Der.NULL));

  /** id-ecPublicKey (1.2.840.10045.2.1), encoded. */
  private static final byte[] EC_PUBLIC_KEY =
      Der.encode(Der.OID, bytes(0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01));

  private static final List<String> ALGORITHMS = List.of("RSA", "EC", "Ed25519", "RSASSA-PSS");
  private static final String CONVERT = "; convert it with: openssl pkcs8 -topk8 -nocrypt";

  private PrivateKeys() {}

  /**
   * The key in {@code block}.
   *
   * @throws IllegalArgumentException saying why the block is not a usable key
   */
  static PrivateKey of(PemBlock block) {
    if (block.encrypted() || block.type().equals("ENCRYPTED PRIVATE KEY")) {
      throw new IllegalArgumentException("the key is encrypted" + CONVERT);
    }
    return switch (block.type()) {
      case "PRIVATE KEY" -> pkcs8(block.der());
      case "RSA PRIVATE KEY" -> pkcs8(wrap(RSA_ALGORITHM, block.der()));
      case "EC PRIVATE KEY" -> pkcs8(wrap(ecAlgorithm(block.der()), block.der()));
      default -> throw new IllegalArgumentException("a " + block.type() + " block is not a key");
    };
  }

  private static PrivateKey pkcs8(byte[] der) {
    for (String algorithm : ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // not this algorithm: try the next one
      }
    }
    throw new IllegalArgumentException(
        "not an RSA, EC or Ed25519 private key in PKCS#8, PKCS#1 or SEC1 form");
  }

  /** PKCS#8 PrivateKeyInfo: version 0, the algorithm, the inner key as an OCTET STRING. */
  private static byte[] wrap(byte[] algorithm, byte[] key) {
    return Der.encode(
        Der.SEQUENCE,
        Der.encode(Der.INTEGER, bytes(0)),
        algorithm,
        Der.encode(Der.OCTET_STRING, key));
  }

  /** The AlgorithmIdentifier for a SEC1 key: id-ecPublicKey and the curve from its [0] field. */
  private static byte[] ecAlgorithm(byte[] sec1) {
    for (Der.Element field : Der.children(sec1, Der.read(sec1, 0))) {
      if (field.tag() == Der.CONTEXT_0) {
        Der.Element curve = Der.read(sec1, field.contentStart());
        if (curve.tag() != Der.OID) {
          throw new IllegalArgumentException("the EC key has explicit curve parameters" + CONVERT);
        }
        return Der.encode(Der.SEQUENCE, EC_PUBLIC_KEY, curve.encoded(sec1));
      }
    }
    throw new IllegalArgumentException("the EC key does not name its curve" + CONVERT);
  }

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }
}
