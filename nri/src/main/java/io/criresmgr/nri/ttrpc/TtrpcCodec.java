package io.criresmgr.nri.ttrpc;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * ttrpc's framing: a 10-byte header (payload length u32, stream id u32, type u8, flags u8, all
 * big-endian) and at most {@value #MAX_MESSAGE} bytes of payload, as containerd/ttrpc's {@code
 * channel.go} does.
 */
public final class TtrpcCodec {
  /** The header's size in bytes. */
  public static final int HEADER = 10;

  /** ttrpc's messageLengthMax: 4 MiB. */
  public static final int MAX_MESSAGE = 4 << 20;

  private TtrpcCodec() {}

  /**
   * Reads one frame, or returns null at a clean end of stream (before any header byte).
   *
   * @throws OversizedMessageException after discarding a payload over {@value #MAX_MESSAGE} bytes,
   *     as ttrpc does, so the stream stays usable
   * @throws EOFException if the stream ends inside a frame
   */
  public static @org.jspecify.annotations.Nullable TtrpcFrame read(InputStream in)
      throws IOException {
    byte[] header = new byte[HEADER];
    int first = in.read(header, 0, HEADER);
    if (first < 0) {
      return null;
    }
    readFully(in, header, first, HEADER - first);
    ByteBuffer buf = ByteBuffer.wrap(header);
    long length = Integer.toUnsignedLong(buf.getInt());
    int streamId = buf.getInt();
    byte type = buf.get();
    byte flags = buf.get();
    if (length > MAX_MESSAGE) {
      in.skipNBytes(length);
      throw new OversizedMessageException(streamId, length);
    }
    byte[] payload = new byte[(int) length];
    readFully(in, payload, 0, payload.length);
    return new TtrpcFrame(streamId, type, flags, payload);
  }

  /** Writes one frame with a single {@code write} call, so a multiplexer sends it whole. */
  public static void write(OutputStream out, TtrpcFrame frame) throws IOException {
    int length = frame.payload().length;
    if (length > MAX_MESSAGE) {
      throw new TtrpcException(
          TtrpcException.Code.RESOURCE_EXHAUSTED,
          "message of " + length + " bytes exceeds ttrpc's maximum of " + MAX_MESSAGE);
    }
    ByteBuffer buf = ByteBuffer.allocate(HEADER + length);
    buf.putInt(length).putInt(frame.streamId()).put(frame.type()).put(frame.flags());
    buf.put(frame.payload());
    out.write(buf.array());
    out.flush();
  }

  private static void readFully(InputStream in, byte[] b, int off, int len) throws IOException {
    int n = in.readNBytes(b, off, len);
    if (n < len) {
      throw new EOFException(
          "ttrpc stream ended inside a frame: " + (off + n) + " of " + (off + len) + " bytes");
    }
  }

  /** A frame longer than {@value #MAX_MESSAGE} bytes arrived; its payload was discarded. */
  public static final class OversizedMessageException extends TtrpcException {
    private static final long serialVersionUID = 1L;
    private final int streamId;

    OversizedMessageException(int streamId, long length) {
      super(
          Code.RESOURCE_EXHAUSTED,
          "message length "
              + length
              + " on stream "
              + streamId
              + " exceeds ttrpc's maximum message size of "
              + MAX_MESSAGE);
      this.streamId = streamId;
    }

    /** The stream the message was sent on. */
    public int streamId() {
      return streamId;
    }
  }
}
