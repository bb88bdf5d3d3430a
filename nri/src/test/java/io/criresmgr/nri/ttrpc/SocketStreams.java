package io.criresmgr.nri.ttrpc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Streams straight on a blocking {@link SocketChannel}, so one thread can read while another writes
 * (JDK 17's {@code Channels.newInputStream} holds the channel's blocking lock while it reads).
 */
public final class SocketStreams {
  private SocketStreams() {}

  /** Reads from {@code ch}. */
  public static InputStream in(SocketChannel ch) {
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return len == 0 ? 0 : ch.read(ByteBuffer.wrap(b, off, len));
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    };
  }

  /** Writes to {@code ch}. */
  public static OutputStream out(SocketChannel ch) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b, off, len);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    };
  }
}
