package io.criresmgr.cache.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** Names the kind of a file for error messages, from its mode without opening it. */
final class FileKind {
  private static final int TYPE_MASK = 0170000;
  private static final int FIFO = 0010000;
  private static final int CHARACTER_DEVICE = 0020000;
  private static final int DIRECTORY = 0040000;
  private static final int BLOCK_DEVICE = 0060000;
  private static final int SYMBOLIC_LINK = 0120000;
  private static final int SOCKET = 0140000;
  private static final int STICKY = 01000;

  private FileKind() {}

  /** "a FIFO (named pipe)", "a character device", ... or "missing". */
  static String of(Path file) {
    try {
      return switchOn(mode(file) & TYPE_MASK);
    } catch (IOException | RuntimeException e) {
      // The "unix" attribute view is missing on some platforms: name what the portable one knows.
      return portable(file);
    }
  }

  /** Whether {@code dir} has the sticky bit, as shared directories such as /tmp have. */
  static boolean isSticky(Path dir) {
    try {
      return (mode(dir) & STICKY) != 0;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static int mode(Path file) throws IOException {
    return (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
  }

  private static String switchOn(int type) {
    return switch (type) {
      case FIFO -> "a FIFO (named pipe)";
      case CHARACTER_DEVICE -> "a character device";
      case DIRECTORY -> "a directory";
      case BLOCK_DEVICE -> "a block device";
      case SYMBOLIC_LINK -> "a symbolic link";
      case SOCKET -> "a socket";
      default -> "a special file";
    };
  }

  private static String portable(Path file) {
    try {
      BasicFileAttributes a =
          Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (a.isDirectory()) {
        return "a directory";
      }
      return a.isSymbolicLink() ? "a symbolic link" : "a special file (device, FIFO or socket)";
    } catch (IOException e) {
      return "missing";
    }
  }
}
