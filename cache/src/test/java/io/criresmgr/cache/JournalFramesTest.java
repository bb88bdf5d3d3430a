package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** The journal's frame header: generation, length and CRC-32 as 8 lowercase hex digits. */
class JournalFramesTest {
  private static long crc(byte[] batch) {
    CRC32 crc = new CRC32();
    crc.update(batch);
    return crc.getValue();
  }

  /** The first batch {@code {"n":i}} whose CRC-32 is below {@code limit}. */
  private static byte[] batchWithCrcBelow(long limit) {
    for (int i = 0; ; i++) {
      byte[] batch = ("{\"n\":" + i + "}").getBytes(US_ASCII);
      if (crc(batch) < limit) {
        return batch;
      }
    }
  }

  @Test
  void aSmallCrcIsPaddedToEightDigitsAndReadBack() {
    byte[] batch = batchWithCrcBelow(0x00100000L);
    String digits = Long.toHexString(crc(batch));

    byte[] frame = JournalFrames.frame(7, batch);

    String expected =
        "7 "
            + batch.length
            + " "
            + "0".repeat(8 - digits.length())
            + digits
            + " "
            + new String(batch, US_ASCII)
            + "\n";
    assertEquals(expected, new String(frame, US_ASCII));
    JournalFrames.Contents read = JournalFrames.read(frame);
    assertEquals(frame.length, read.validBytes());
    assertEquals(7, read.frames().get(0).generation());
    assertArrayEquals(batch, read.frames().get(0).batch());
  }

  @Test
  void hexDigitsAreLowercaseAndEightForEveryValue() {
    assertEquals("00000000", JournalFrames.hex8(0));
    assertEquals("0000000a", JournalFrames.hex8(10));
    assertEquals("00abcdef", JournalFrames.hex8(0xabcdefL));
    assertEquals("ffffffff", JournalFrames.hex8(0xffffffffL));
    for (long v = 1; v <= 0xffffffffL; v = v * 3 + 1) {
      assertEquals(String.format("%08x", v), JournalFrames.hex8(v));
    }
  }
}
