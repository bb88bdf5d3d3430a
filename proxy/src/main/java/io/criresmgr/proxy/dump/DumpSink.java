package io.criresmgr.proxy.dump;

import io.criresmgr.cache.files.StateDirectory;
import io.criresmgr.grpc.unix.Shutdown;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where dumped lines go: the {@code message} logger (info, or debug when configured so) and an
 * optional file written by a background thread, so a slow disk never stalls the relay. If the file
 * writer falls more than 10,000 batches behind, batches are dropped and counted.
 */
final class DumpSink implements AutoCloseable {
  private static final Logger MESSAGES = LoggerFactory.getLogger("message");
  private static final Logger LOG = LoggerFactory.getLogger(DumpSink.class);

  private final boolean debug;
  private final @Nullable BufferedWriter file;
  private final @Nullable ThreadPoolExecutor writer;
  private final AtomicLong dropped = new AtomicLong();
  private volatile @Nullable String writeFailure;
  private final String fileName;

  private DumpSink(boolean debug, @Nullable BufferedWriter file, String fileName) {
    this.debug = debug;
    this.file = file;
    this.fileName = fileName;
    this.writer = file == null ? null : newWriterThread();
  }

  /**
   * Logs to the message logger and, if {@code file} is not empty, truncates and writes it with mode
   * 0600 (full dumps hold container environments). An existing file must be a regular file, not a
   * symbolic link: opening a FIFO would block, and a link could make the daemon truncate another
   * file.
   */
  static DumpSink open(boolean debug, String file) {
    if (file.isEmpty()) {
      return new DumpSink(debug, null, "");
    }
    try {
      Path path = Path.of(file);
      Path parent = path.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      return new DumpSink(debug, privateWriter(path), file);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot open dump file \"" + file + "\": " + e.getMessage(), e);
    }
  }

  private static BufferedWriter privateWriter(Path path) throws IOException {
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)
        && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException("it exists and is not a regular file");
    }
    Set<OpenOption> options =
        Set.of(
            StandardOpenOption.WRITE,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            LinkOption.NOFOLLOW_LINKS);
    FileChannel channel = FileChannel.open(path, options, StateDirectory.privateFile(path));
    try {
      StateDirectory.makePrivate(path); // an existing file, or the umask took bits away
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    return new BufferedWriter(Channels.newWriter(channel, StandardCharsets.UTF_8));
  }

  /** Logs {@code lines}, at warning level if {@code failure}; file lines get {@code stamp}. */
  void emit(boolean failure, List<String> lines, String stamp) {
    for (String line : lines) {
      if (failure) {
        MESSAGES.warn("{}", line);
      } else if (debug) {
        MESSAGES.debug("{}", line);
      } else {
        MESSAGES.info("{}", line);
      }
    }
    BufferedWriter out = file;
    if (writer != null && out != null) { // both or neither
      try {
        writer.execute(() -> write(out, lines, stamp));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        dropped.incrementAndGet();
      }
    }
  }

  private void write(BufferedWriter out, List<String> lines, String stamp) {
    try {
      for (String line : lines) {
        out.write("[" + stamp + "] " + line + "\n");
      }
      out.flush();
      writeFailure = null;
    } catch (IOException e) {
      dropped.incrementAndGet();
      if (writeFailure == null) {
        LOG.warn(
            "cannot write dump file {}: {} (dumps go on to the log)", fileName, e.getMessage());
      }
      writeFailure = "cannot write dump file " + fileName + ": " + e.getMessage();
    }
  }

  /** Why the last write to the file failed, for {@code /healthz}; empty while writes succeed. */
  Optional<String> problem() {
    return Optional.ofNullable(writeFailure);
  }

  @Override
  public void close() {
    if (writer == null || file == null) { // both or neither
      return;
    }
    Shutdown.draining(Shutdown.of(writer), Duration.ofSeconds(5));
    if (!Thread.currentThread().isInterrupted()) { // interrupted: the writer may still write
      try {
        file.close();
      } catch (IOException e) {
        LOG.warn("closing the dump file failed: {}", e.getMessage());
      }
    }
    if (dropped.get() > 0) {
      LOG.warn("{} dump batches could not be written to the dump file", dropped.get());
    }
  }

  private static ThreadPoolExecutor newWriterThread() {
    return new ThreadPoolExecutor(
        1,
        1,
        0,
        TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(10_000),
        new DefaultThreadFactory("dump-file-writer", true));
  }
}
