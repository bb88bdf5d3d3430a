package io.criresmgr.webhook.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PrivateKeysTest {
  @Test
  void aSec1KeyWithoutItsCurveIsRefusedWithAHint() {
    byte[] sec1 =
        Der.encode(
            Der.SEQUENCE,
            Der.encode(Der.INTEGER, new byte[] {1}),
            Der.encode(Der.OCTET_STRING, new byte[32]));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PrivateKeys.of(new PemBlock("EC PRIVATE KEY", false, sec1)));
    assertEquals(
        "the EC key does not name its curve; convert it with: openssl pkcs8 -topk8 -nocrypt",
        e.getMessage());
  }

  @Test
  void aCertificateBlockIsNoKey() {
    assertEquals(
        "a CERTIFICATE block is not a key",
        assertThrows(
                IllegalArgumentException.class,
                () -> PrivateKeys.of(new PemBlock("CERTIFICATE", false, new byte[0])))
            .getMessage());
  }
}
