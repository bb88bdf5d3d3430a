package io.criresmgr.agent.server;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Prepares the agent socket's path: directory created, a stale socket removed, a live one kept. */
final class SocketFile {
  private static final int S_IFMT = 0170000;
  private static final int S_IFSOCK = 0140000;

  private SocketFile() {}

  /**
   * Creates the directory of {@code path} if missing and removes a socket file there that no
   * process serves; refuses a live socket and a file that is not a socket.
   */
  static void prepare(Path path) throws IOException {
    Path dir = path.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    if ((mode & S_IFMT) != S_IFSOCK) {
      throw new IOException(path + " exists and is not a socket; remove it or choose another");
    }
    if (isServed(path)) {
      throw new IOException(
          "a process is already serving " + path + "; is another agent running? Stop it first");
    }
    Files.delete(path);
  }

  /** Restricts the socket to its owner (root): the API patches the Node with the agent's rights. */
  static void restrict(Path path) throws IOException {
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
  }

  private static boolean isServed(Path path) {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(path));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
