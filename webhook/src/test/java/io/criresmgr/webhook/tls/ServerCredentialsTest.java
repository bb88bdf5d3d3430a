package io.criresmgr.webhook.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Loads keys and certificates made with openssl 3 (see the test resources of this package). */
class ServerCredentialsTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "rsa.crt, rsa-pkcs1.key, RSA",
    "rsa.crt, rsa-pkcs8.key, RSA",
    "ec.crt, ec-sec1.key, EC",
    "ec.crt, ec-pkcs8.key, EC"
  })
  void loadsPkcs8Pkcs1AndSec1Keys(String cert, String key, String algorithm) throws Exception {
    ServerCredentials credentials = ServerCredentials.load(resource(cert), resource(key));
    assertEquals(algorithm, credentials.key().getAlgorithm());
    assertEquals(1, credentials.chain().size());
    assertNotNull(credentials.sslContext().getServerSocketFactory());
  }

  @Test
  void keepsTheWholeChainInOrder() throws Exception {
    Path chain = dir.resolve("chain.crt");
    Files.writeString(
        chain,
        "leaf\n" + Files.readString(resource("rsa.crt")) + Files.readString(resource("ec.crt")));
    ServerCredentials credentials = ServerCredentials.load(chain, resource("rsa-pkcs8.key"));
    assertEquals(2, credentials.chain().size());
    assertEquals("CN=rsa.test", credentials.chain().get(0).getSubjectX500Principal().getName());
  }

  @Test
  void aKeyOfAnotherCertificateIsRefused() throws Exception {
    CredentialsException e =
        assertThrows(
            CredentialsException.class,
            () -> ServerCredentials.load(resource("rsa.crt"), resource("ec-sec1.key")));
    assertTrue(
        e.getMessage()
            .endsWith("the private key does not belong to the certificate of CN=rsa.test"),
        e.getMessage());
  }

  @Test
  void anEncryptedKeyIsRefusedWithAHint() throws Exception {
    Path key = resource("ec-encrypted.key");
    CredentialsException e =
        assertThrows(
            CredentialsException.class, () -> ServerCredentials.load(resource("ec.crt"), key));
    assertEquals(
        "key file "
            + key
            + ": the key is encrypted; convert it with: openssl pkcs8 -topk8 -nocrypt",
        e.getMessage());
  }

  @Test
  void missingFilesAndBlocksAreNamed() throws Exception {
    Path missing = dir.resolve("missing.crt");
    Path key = resource("rsa-pkcs8.key");
    assertTrue(
        assertThrows(CredentialsException.class, () -> ServerCredentials.load(missing, key))
            .getMessage()
            .startsWith("cannot read certificate file " + missing + ": "));
    assertEquals(
        "certificate file " + key + ": no -----BEGIN CERTIFICATE----- block",
        assertThrows(CredentialsException.class, () -> ServerCredentials.load(key, key))
            .getMessage());
    Path cert = resource("rsa.crt");
    assertEquals(
        "key file " + cert + ": expected one PRIVATE KEY block, found 0",
        assertThrows(CredentialsException.class, () -> ServerCredentials.load(cert, cert))
            .getMessage());
  }

  @Test
  void aBlockThatIsNoKeyIsRefused() throws Exception {
    Path key = dir.resolve("bogus.key");
    Files.writeString(key, "-----BEGIN PRIVATE KEY-----\nAQID\n-----END PRIVATE KEY-----\n");
    assertEquals(
        "key file "
            + key
            + ": not an RSA, EC or Ed25519 private key in PKCS#8, PKCS#1 or SEC1 form",
        assertThrows(
                CredentialsException.class, () -> ServerCredentials.load(resource("rsa.crt"), key))
            .getMessage());
  }

  /** A copy of the test resource {@code name} in the temporary directory. */
  private Path resource(String name) throws IOException {
    Path file = dir.resolve(name);
    if (!Files.exists(file)) {
      try (InputStream in = getClass().getResourceAsStream(name)) {
        Files.copy(in, file);
      }
    }
    return file;
  }
}
