package io.criresmgr.nri.ttrpc;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.jspecify.annotations.Nullable;

/**
 * One logical connection of a {@link Multiplexer}: a byte stream each way. Reads block until a
 * frame arrives; writes are sent at once, in frames of at most {@link Multiplexer#WRITE_CHUNK}
 * bytes.
 */
public final class MuxConnection implements AutoCloseable {
  private static final byte[] END = new byte[0];

  private final Multiplexer mux;
  private final int id;
  private final BlockingQueue<byte[]> queue;
  private final int limit;
  private volatile @Nullable Throwable failure;
  private final InputStream in = new In();
  private final OutputStream out = new Out();

  MuxConnection(Multiplexer mux, int id, int queueLength) {
    this.mux = mux;
    this.id = id;
    // one place more than upstream's queue for the end marker
    this.queue = new ArrayBlockingQueue<>(queueLength + 1);
    this.limit = queueLength;
  }

  /** The connection id. */
  public int id() {
    return id;
  }

  /** What the peer writes on this connection; ends when the connection or the trunk closes. */
  public InputStream input() {
    return in;
  }

  /** Writes to the peer's side of this connection. */
  public OutputStream output() {
    return out;
  }

  /** Closes this connection only; the trunk and other connections stay open. */
  @Override
  public void close() {
    mux.forget(this);
    end(null);
  }

  boolean offer(byte[] payload) {
    return queue.size() < limit && queue.offer(payload);
  }

  /** Ends the stream after what is queued, or at once (dropping it) on a failure. */
  void end(@Nullable Throwable cause) {
    if (cause != null) {
      failure = cause;
      queue.clear();
    }
    queue.offer(END);
  }

  private final class In extends InputStream {
    private byte[] current = new byte[0];
    private int pos;
    private boolean ended;

    /** Closes the whole connection, which ends a reader blocked on it. */
    @Override
    public void close() {
      MuxConnection.this.close();
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (!fill()) {
        return -1;
      }
      int n = Math.min(len, current.length - pos);
      System.arraycopy(current, pos, b, off, n);
      pos += n;
      return n;
    }

    private boolean fill() throws IOException {
      while (!ended && pos == current.length) {
        byte[] next = take();
        if (next == END) {
          ended = true;
          queue.offer(END);
        } else {
          current = next;
          pos = 0;
        }
      }
      if (ended && failure != null) {
        throw new EOFException("mux connection " + id + " failed: " + failure.getMessage());
      }
      return !ended;
    }

    private byte[] take() throws InterruptedIOException {
      try {
        return queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted reading mux connection " + id);
      }
    }
  }

  private final class Out extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      mux.write(id, b, off, len);
    }
  }
}
