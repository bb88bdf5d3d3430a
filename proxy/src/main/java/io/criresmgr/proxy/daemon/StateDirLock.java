package io.criresmgr.proxy.daemon;

import io.criresmgr.cache.files.StateDirectory;
import io.criresmgr.proxy.relay.RelayException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An exclusive lock on {@code <relay-dir>/cri-resmgr.lock}, held for the daemon's lifetime: two
 * daemons (e.g. with different relay sockets) sharing one state directory would overwrite each
 * other's cache and give the same CPUs twice. The file holds the owner's PID, for the error message
 * of the second. The kernel drops the lock when the process dies, so a crash leaves nothing stale.
 */
public final class StateDirLock implements AutoCloseable {
  /** The lock file's name in the relay directory. */
  public static final String NAME = "cri-resmgr.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private StateDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code relayDir} (which must exist) for this process.
   *
   * @throws RelayException if another process holds it, naming its PID, or the file cannot be used
   */
  public static StateDirLock claim(Path relayDir) {
    Path file = relayDir.resolve(NAME);
    try {
      FileChannel channel =
          FileChannel.open(
              file,
              Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
              StateDirectory.privateFile(file));
      try {
        FileLock lock = tryLock(channel);
        if (lock == null) {
          throw new RelayException(heldBy(file).orElse("another process") + holds(relayDir, file));
        }
        channel.truncate(0);
        channel.write(StandardCharsets.US_ASCII.encode(ProcessHandle.current().pid() + "\n"), 0);
        return new StateDirLock(channel, lock);
      } catch (IOException | RuntimeException e) {
        channel.close(); // releases the lock too
        throw e;
      }
    } catch (IOException e) {
      throw new RelayException("cannot lock relay directory " + relayDir + ": " + e, e);
    }
  }

  /**
   * Whether a live process holds the lock of {@code relayDir} (false if nothing was ever there).
   */
  public static boolean isHeld(Path relayDir) {
    Path file = relayDir.resolve(NAME);
    if (!Files.isRegularFile(file)) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      FileLock lock = tryLock(channel);
      if (lock != null) {
        lock.release();
      }
      return lock == null;
    } catch (IOException e) {
      return false;
    }
  }

  private static String holds(Path relayDir, Path file) {
    return " holds "
        + file
        + ": another cri-resmgr uses relay directory "
        + relayDir
        + "; two daemons must not share one (stop it, or give this one another --relay-dir)";
  }

  private static Optional<String> heldBy(Path file) {
    try {
      String pid = Files.readString(file, StandardCharsets.US_ASCII).strip();
      return pid.matches("[0-9]{1,10}") ? Optional.of("process " + pid) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static @Nullable FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException heldByThisProcess) {
      return null;
    }
  }

  /** Releases the lock; the file stays (removing it would race with a starting daemon). */
  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
