package io.criresmgr.proxy.relay;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards the relay socket path: one daemon per socket, stale files removed, permissions as
 * cri-resmgr sets them (directory 0711, socket 0660, then owner and mode of the runtime socket).
 *
 * <p>Netty unlinks an existing socket before binding, so without this guard a second daemon would
 * silently steal the socket from a running one. An exclusive lock on {@code <socket>.lock} closes
 * the race between two starting daemons; the liveness probe also catches a daemon that does not use
 * the lock (e.g. the Go cri-resmgr).
 */
public final class RelaySocket implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelaySocket.class);

  private final Path path;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private volatile @Nullable Object served;

  private RelaySocket(Path path, FileChannel lockChannel, FileLock lock) {
    this.path = path;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /**
   * Claims {@code path}: creates its directory (0711) if missing, takes the lock, refuses a path
   * that a live process serves or that is not a socket, and removes a stale socket file.
   */
  public static RelaySocket claim(Path path) {
    try {
      createDirectory(path.toAbsolutePath().getParent());
      RelaySocket socket = lock(path);
      try {
        socket.removeStale();
      } catch (RuntimeException | IOException e) {
        socket.close();
        throw e;
      }
      return socket;
    } catch (IOException e) {
      throw new RelayException("cannot prepare relay socket " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Claims {@code path} that systemd bound and serves (socket activation): only the lock is taken.
   * The file, its mode and owner stay the socket unit's, and {@link #close} leaves the file.
   */
  public static RelaySocket claimInherited(Path path) {
    try {
      return lock(path);
    } catch (IOException e) {
      throw new RelayException("cannot lock relay socket " + path + ": " + e.getMessage(), e);
    }
  }

  private static RelaySocket lock(Path path) throws IOException {
    Path lockPath = path.resolveSibling(path.getFileName() + ".lock");
    FileChannel channel =
        FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock = tryLock(channel);
    if (lock == null) {
      channel.close();
      throw new RelayException(
          "another cri-resmgr holds " + lockPath + " and serves " + path + "; stop it first");
    }
    return new RelaySocket(path, channel, lock);
  }

  private static @Nullable FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException heldByThisProcess) {
      return null;
    }
  }

  private static void createDirectory(@Nullable Path dir) throws IOException {
    if (dir != null && !Files.isDirectory(dir)) { // null: the root directory
      Files.createDirectories(dir);
      UnixFiles.chmod(dir, 0711);
    }
  }

  private void removeStale() throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    if (!UnixFiles.isSocket(path)) {
      throw new RelayException(path + " exists and is not a socket; remove it or choose another");
    }
    if (UnixFiles.isServed(path)) {
      throw new RelayException(
          "a process is already serving " + path + "; refusing to take it over, stop it first");
    }
    LOG.info("removing stale socket {}", path);
    Files.delete(path);
  }

  private static @Nullable Object fileKey(Path file) throws IOException {
    return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
        .fileKey();
  }

  /** The socket path. */
  public Path path() {
    return path;
  }

  /**
   * After binding (again): mode 0660, then owner, group and mode copied from the runtime socket.
   * The socket file is remembered, so that {@link #close} removes only it.
   */
  public void applyPermissions(Path runtimeSocket) throws IOException {
    served = fileKey(path);
    UnixFiles.chmod(path, 0660);
    if (Files.exists(runtimeSocket)) {
      UnixFiles.copyOwnerAndMode(runtimeSocket, path);
    }
  }

  /** Removes the socket file if this daemon served it, and releases the lock. */
  @Override
  public void close() throws IOException {
    try {
      // Another file may have taken the path since (see RelayBinding): never remove that one.
      if (served != null
          && Files.exists(path, LinkOption.NOFOLLOW_LINKS)
          && served.equals(fileKey(path))) {
        Files.delete(path);
      }
    } finally {
      lock.release();
      lockChannel.close();
    }
  }
}
