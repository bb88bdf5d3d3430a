package io.criresmgr.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A plain TCP client that writes what a test says, byte by byte if need be. */
final class RawConnection implements AutoCloseable {
  private final Socket socket = new Socket();

  RawConnection(int port) throws IOException {
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
  }

  /** A connection that buffers at most about {@code receiveBuffer} bytes it has not read. */
  RawConnection(int port, int receiveBuffer) throws IOException {
    socket.setReceiveBufferSize(receiveBuffer);
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
  }

  /** Reads {@code n} bytes (blocking until they arrive), for a response the test has not read. */
  String read(int n) throws IOException {
    socket.setSoTimeout(5000);
    return new String(socket.getInputStream().readNBytes(n), StandardCharsets.ISO_8859_1);
  }

  RawConnection send(String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
    return this;
  }

  /**
   * Reads until the server closes the connection or {@code limit} passes; returns what arrived, or
   * throws if the connection is still open after {@code limit}.
   */
  String readUntilClosed(Duration limit) throws IOException {
    socket.setSoTimeout((int) limit.toMillis());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    long end = System.nanoTime() + limit.toNanos();
    byte[] buf = new byte[4096];
    try {
      for (int n; (n = in.read(buf)) >= 0; ) {
        out.write(buf, 0, n);
        if (System.nanoTime() > end) {
          throw new AssertionError("still open after " + limit + ": " + out);
        }
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("still open after " + limit + ": " + out, e);
    } catch (IOException e) {
      // A reset is a close too.
    }
    return out.toString(StandardCharsets.ISO_8859_1);
  }

  /** Reads one response whose headers end before {@code limit}; for keep-alive tests. */
  String readResponse(Duration limit) throws IOException {
    socket.setSoTimeout((int) limit.toMillis());
    InputStream in = socket.getInputStream();
    StringBuilder text = new StringBuilder();
    while (!text.toString().contains("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new AssertionError("closed before a whole response: " + text);
      }
      text.append((char) c);
    }
    int length = contentLength(text.toString());
    for (int i = 0; i < length; i++) {
      text.append((char) in.read());
    }
    return text.toString();
  }

  private static int contentLength(String headers) {
    for (String line : headers.split("\r\n", -1)) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(line.substring(15).strip());
      }
    }
    return 0;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
