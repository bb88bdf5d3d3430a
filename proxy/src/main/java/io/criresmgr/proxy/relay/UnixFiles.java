package io.criresmgr.proxy.relay;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Small POSIX helpers for socket files: type, mode, ownership, liveness. */
public final class UnixFiles {
  private static final int S_IFMT = 0170000;
  private static final int S_IFSOCK = 0140000;

  private UnixFiles() {}

  /** Whether {@code path} is a Unix socket file (without following links). */
  public static boolean isSocket(Path path) throws IOException {
    return (mode(path) & S_IFMT) == S_IFSOCK;
  }

  /** The full {@code st_mode} of {@code path}. */
  public static int mode(Path path) throws IOException {
    return (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
  }

  /** Whether a process accepts connections on the socket at {@code path}. */
  public static boolean isServed(Path path) {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(path));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Sets permission bits from an octal-style integer such as {@code 0660}. */
  public static void chmod(Path path, int bits) throws IOException {
    Files.setPosixFilePermissions(path, permissions(bits));
  }

  /** Copies owner, group and permission bits of {@code from} onto {@code to}. */
  public static void copyOwnerAndMode(Path from, Path to) throws IOException {
    Files.setAttribute(to, "unix:uid", Files.getAttribute(from, "unix:uid"));
    Files.setAttribute(to, "unix:gid", Files.getAttribute(from, "unix:gid"));
    chmod(to, mode(from) & 0777);
  }

  /** Converts permission bits to the NIO set. */
  static Set<PosixFilePermission> permissions(int bits) {
    StringBuilder s = new StringBuilder(9);
    String rwx = "rwx";
    for (int i = 8; i >= 0; i--) {
      s.append((bits & (1 << i)) != 0 ? rwx.charAt((8 - i) % 3) : '-');
    }
    return PosixFilePermissions.fromString(s.toString());
  }
}
