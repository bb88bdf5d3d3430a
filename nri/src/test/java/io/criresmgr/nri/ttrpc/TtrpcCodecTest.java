package io.criresmgr.nri.ttrpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TtrpcCodecTest {
  private static byte[] encode(TtrpcFrame... frames) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (TtrpcFrame f : frames) {
      TtrpcCodec.write(out, f);
    }
    return out.toByteArray();
  }

  /** Hands out one byte per read, as a socket under load may. */
  private static InputStream trickle(byte[] bytes) {
    return new FilterInputStream(new ByteArrayInputStream(bytes)) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return super.read(b, off, Math.min(len, 1));
      }
    };
  }

  @Test
  void headerIsTenBigEndianBytes() throws IOException {
    byte[] wire = encode(new TtrpcFrame(0x01020304, TtrpcFrame.RESPONSE, (byte) 5, new byte[] {9}));
    assertArrayEquals(new byte[] {0, 0, 0, 1, 1, 2, 3, 4, 2, 5, 9}, wire);
  }

  @Test
  void framesRoundTripThroughFragmentedReads() throws IOException {
    byte[] big = new byte[TtrpcCodec.MAX_MESSAGE];
    Arrays.fill(big, (byte) 7);
    InputStream in =
        trickle(
            encode(
                new TtrpcFrame(
                    1, TtrpcFrame.REQUEST, (byte) 0, "hello".getBytes(StandardCharsets.UTF_8)),
                new TtrpcFrame(3, TtrpcFrame.REQUEST, (byte) 0, big)));
    TtrpcFrame first = TtrpcCodec.read(in);
    assertEquals(1, first.streamId());
    assertEquals("hello", new String(first.payload(), StandardCharsets.UTF_8));
    TtrpcFrame second = TtrpcCodec.read(in);
    assertEquals(3, second.streamId());
    assertArrayEquals(big, second.payload());
    assertNull(TtrpcCodec.read(in));
  }

  @Test
  void oversizedMessageIsDiscardedAndTheNextFrameStillReads() throws IOException {
    int length = TtrpcCodec.MAX_MESSAGE + 1;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {0, 0x40, 0, 1, 0, 0, 0, 7, 1, 0});
    out.write(new byte[length]);
    out.write(encode(new TtrpcFrame(9, TtrpcFrame.REQUEST, (byte) 0, new byte[] {1})));
    InputStream in = new ByteArrayInputStream(out.toByteArray());
    var e = assertThrows(TtrpcCodec.OversizedMessageException.class, () -> TtrpcCodec.read(in));
    assertEquals(7, e.streamId());
    assertTrue(e.getMessage().contains("message length " + length), e.getMessage());
    assertEquals(9, TtrpcCodec.read(in).streamId());
  }

  @Test
  void writingOverTheLimitIsRefused() {
    var frame =
        new TtrpcFrame(1, TtrpcFrame.REQUEST, (byte) 0, new byte[TtrpcCodec.MAX_MESSAGE + 1]);
    var e =
        assertThrows(
            TtrpcException.class, () -> TtrpcCodec.write(new ByteArrayOutputStream(), frame));
    assertEquals(TtrpcException.Code.RESOURCE_EXHAUSTED, e.code());
  }

  @Test
  void truncatedFrameIsAnError() throws IOException {
    byte[] wire = encode(new TtrpcFrame(1, TtrpcFrame.REQUEST, (byte) 0, new byte[100]));
    InputStream in = new ByteArrayInputStream(Arrays.copyOf(wire, 50));
    var e = assertThrows(EOFException.class, () -> TtrpcCodec.read(in));
    assertTrue(e.getMessage().contains("ended inside a frame"), e.getMessage());
  }
}
