package io.criresmgr.proxy.relay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's PID file, written after the relay serves and held open for the process lifetime
 * (cri-resmgr's e2e tooling checks it with {@code fuser}). Callers hold the relay socket, so an
 * existing file is stale and is replaced.
 */
public final class PidFile implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PidFile.class);

  private final Path path;
  private final FileChannel channel;

  private PidFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** Replaces any stale file at {@code path} with one holding this process's PID. */
  public static PidFile write(Path path) {
    try {
      Path parent = path.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      if (Files.deleteIfExists(path)) {
        LOG.info("removed stale PID file {}", path);
      }
      FileChannel channel =
          FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      String pid = ProcessHandle.current().pid() + "\n";
      channel.write(ByteBuffer.wrap(pid.getBytes(StandardCharsets.US_ASCII)));
      channel.force(false);
      return new PidFile(path, channel);
    } catch (IOException e) {
      throw new RelayException("cannot write PID file " + path + ": " + e.getMessage(), e);
    }
  }

  /** Closes and removes the file. */
  @Override
  public void close() throws IOException {
    channel.close();
    Files.deleteIfExists(path);
  }
}
