package io.criresmgr.nri.ttrpc;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NRI's connection multiplexing (containerd/nri {@code pkg/net/multiplex}): one trunk carries
 * several logical connections, each frame an 8-byte header (connection id u32, payload length u32,
 * big-endian) and the payload.
 *
 * <p>As upstream: opening a connection sends nothing, id 0 is reserved, frames for a connection
 * nobody opened are dropped, and a connection whose read queue ({@value #QUEUE_LENGTH} frames)
 * overflows closes the whole trunk with an error. Open the connections before {@link #start()},
 * which plays the role of upstream's blocked read. Two choices of ours: a frame over {@value
 * #MAX_PAYLOAD} bytes (upstream's write limit) closes the trunk instead of being read, and writes
 * are cut into frames of at most {@value #WRITE_CHUNK} bytes, the read buffer of ttrpc's Go reader,
 * which fails on a larger frame.
 */
public final class Multiplexer implements AutoCloseable {
  /** The connection the plugin serves its {@code Plugin} service on. */
  public static final int PLUGIN_SERVICE_CONN = 1;

  /** The connection the runtime serves its {@code Runtime} service on. */
  public static final int RUNTIME_SERVICE_CONN = 2;

  /** Upstream's maxPayloadSize: 16 MiB. */
  public static final int MAX_PAYLOAD = 1 << 24;

  /** The size of the frames we write. */
  public static final int WRITE_CHUNK = 4096;

  /** Upstream's per-connection read queue length. */
  public static final int QUEUE_LENGTH = 256;

  private static final int HEADER = 8;
  private static final Logger LOG = LoggerFactory.getLogger(Multiplexer.class);

  private final ByteChannel trunk;
  private final String name;
  private final Map<Integer, MuxConnection> conns = new ConcurrentHashMap<>();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final Object writeLock = new Object();

  /** A multiplexer over a connected, blocking trunk; {@code name} names its reader thread. */
  public Multiplexer(ByteChannel trunk, String name) {
    this.trunk = Objects.requireNonNull(trunk, "trunk");
    this.name = Objects.requireNonNull(name, "name");
  }

  /** The logical connection {@code id}, created on first use. */
  public MuxConnection open(int id) {
    if (id == 0) {
      throw new IllegalArgumentException("mux connection id 0 is reserved; use 1 or more");
    }
    return conns.computeIfAbsent(id, i -> new MuxConnection(this, i, QUEUE_LENGTH));
  }

  /** Starts reading the trunk on a daemon thread. */
  public void start() {
    Thread reader = new Thread(this::readLoop, name + "-mux-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Completes normally when the peer closes the trunk or {@link #close()} is called, exceptionally
   * with the reason when the trunk fails.
   */
  public CompletableFuture<Void> closed() {
    return closed;
  }

  /** Closes the trunk and every connection. */
  @Override
  public void close() {
    shutdown(null);
  }

  void write(int id, byte[] b, int off, int len) throws IOException {
    if (closed.isDone()) {
      throw new EOFException("mux trunk " + name + " is closed");
    }
    synchronized (writeLock) {
      for (int done = 0, n; done < len; done += n) {
        n = Math.min(WRITE_CHUNK, len - done);
        ByteBuffer frame = ByteBuffer.allocate(HEADER + n);
        frame.putInt(id).putInt(n).put(b, off + done, n).flip();
        writeFully(frame);
      }
    }
  }

  void forget(MuxConnection conn) {
    conns.remove(conn.id(), conn);
  }

  private void writeFully(ByteBuffer buf) throws IOException {
    try {
      while (buf.hasRemaining()) {
        trunk.write(buf);
      }
    } catch (IOException e) {
      shutdown(e);
      throw e;
    }
  }

  private void readLoop() {
    try {
      while (readFrame()) {
        // next frame
      }
      shutdown(null);
    } catch (IOException | RuntimeException e) {
      shutdown(closed.isDone() ? null : e);
    }
  }

  private boolean readFrame() throws IOException {
    ByteBuffer header = ByteBuffer.allocate(HEADER);
    if (!readFully(header, true)) {
      return false;
    }
    int id = header.getInt(0);
    long length = Integer.toUnsignedLong(header.getInt(4));
    if (length > MAX_PAYLOAD) {
      throw new IOException(
          "mux frame for connection "
              + Integer.toUnsignedString(id)
              + " announces "
              + length
              + " bytes, over the limit of "
              + MAX_PAYLOAD);
    }
    ByteBuffer payload = ByteBuffer.allocate((int) length);
    readFully(payload, false);
    MuxConnection conn = conns.get(id);
    if (conn == null) {
      LOG.debug("mux {}: dropped {} bytes for unopened connection {}", name, length, id);
    } else if (!conn.offer(payload.array())) {
      throw new IOException(
          "mux connection " + id + " overflowed its queue of " + QUEUE_LENGTH + " frames");
    }
    return true;
  }

  /** Fills {@code buf}; false at a clean end of stream before the first byte if allowed. */
  private boolean readFully(ByteBuffer buf, boolean eofAllowed) throws IOException {
    boolean first = true;
    while (buf.hasRemaining()) {
      if (trunk.read(buf) < 0) {
        if (first && eofAllowed) {
          return false;
        }
        throw new EOFException("mux trunk " + name + " ended inside a frame");
      }
      first = false;
    }
    return true;
  }

  private void shutdown(@org.jspecify.annotations.Nullable Throwable cause) {
    boolean first =
        cause == null ? closed.complete(null) : closed.completeExceptionally(wrap(cause));
    if (!first) {
      return;
    }
    conns.values().forEach(c -> c.end(cause));
    try {
      trunk.close();
    } catch (IOException e) {
      LOG.debug("mux {}: closing the trunk failed", name, e);
    }
  }

  private IOException wrap(Throwable cause) {
    return cause instanceof IOException io
        ? io
        : new IOException("mux trunk " + name + " failed: " + cause.getMessage(), cause);
  }
}
