package io.criresmgr.webhook.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PemBlockTest {
  @Test
  void readsEveryBlockAndIgnoresTextAround() {
    String pem =
        """
        Certificate:
            Data: ...
        -----BEGIN CERTIFICATE-----
        AQID
        BA==
        -----END CERTIFICATE-----
        between
          -----BEGIN PRIVATE KEY-----
          BQY=
          -----END PRIVATE KEY-----
        """;
    List<PemBlock> blocks = PemBlock.parse(pem);
    assertEquals(
        List.of("CERTIFICATE", "PRIVATE KEY"), blocks.stream().map(PemBlock::type).toList());
    assertArrayEquals(new byte[] {1, 2, 3, 4}, blocks.get(0).der());
    assertArrayEquals(new byte[] {5, 6}, blocks.get(1).der());
    assertFalse(blocks.get(0).encrypted());
  }

  @Test
  void marksLegacyEncryptedBlocks() {
    String pem =
        """
        -----BEGIN RSA PRIVATE KEY-----
        Proc-Type: 4,ENCRYPTED
        DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF

        AQID
        -----END RSA PRIVATE KEY-----
        """;
    PemBlock block = PemBlock.parse(pem).get(0);
    assertTrue(block.encrypted());
    assertArrayEquals(new byte[] {1, 2, 3}, block.der());
  }

  @Test
  void reportsBrokenBlocks() {
    assertEquals(
        "a CERTIFICATE block has no END line",
        assertThrows(
                IllegalArgumentException.class,
                () -> PemBlock.parse("-----BEGIN CERTIFICATE-----\nAQID\n"))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> PemBlock.parse("-----BEGIN X-----\n*\n-----END X-----\n"))
            .getMessage()
            .startsWith("a X block is not valid base64"));
  }

  @Test
  void noBlocksIsAnEmptyList() {
    assertEquals(List.of(), PemBlock.parse("hello\n"));
  }
}
