package io.criresmgr.cache.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's state directory ({@code --relay-dir}): it holds pod annotations, the node agent's
 * configuration and, in its files, what containers were given, so only its owner may enter it (mode
 * 0700). Files in it are written with mode 0600 ({@link #FILE_MODE}).
 */
public final class StateDirectory {
  /** The directory's mode: {@code rwx------}. */
  public static final Set<PosixFilePermission> DIR_MODE =
      PosixFilePermissions.fromString("rwx------");

  /** The mode of every file the daemon writes in it: {@code rw-------}. */
  public static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-------");

  private static final Logger LOG = LoggerFactory.getLogger(StateDirectory.class);

  private StateDirectory() {}

  /**
   * Creates {@code dir} (and its parents) with mode 0700, or tightens an existing one that others
   * may enter to 0700. A shared directory (sticky, such as /tmp) or the root is left alone with a
   * warning: its mode is not the daemon's to change.
   *
   * @throws IOException if it cannot be created, or exists and is not a directory
   */
  public static void ensurePrivate(Path dir) throws IOException {
    if (!isPosix(dir)) {
      Files.createDirectories(dir);
      return;
    }
    if (!Files.isDirectory(dir)) {
      create(dir);
    }
    tighten(dir);
  }

  /**
   * {@link #FILE_MODE} as the creation attribute of {@code file}, none where its file system has no
   * POSIX modes.
   */
  public static FileAttribute<?>[] privateFile(Path file) {
    return isPosix(file)
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)}
        : new FileAttribute<?>[0];
  }

  /** Sets {@code file}'s mode to 0600 where the file system has POSIX modes. */
  public static void makePrivate(Path file) throws IOException {
    if (isPosix(file)) {
      Files.setPosixFilePermissions(file, FILE_MODE);
    }
  }

  private static void create(Path dir) throws IOException {
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try {
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
    } catch (FileAlreadyExistsException e) {
      if (!Files.isDirectory(dir)) {
        throw e; // a file by that name: the caller reports it
      }
    }
  }

  private static void tighten(Path dir) throws IOException {
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(dir);
    if (mode.stream().allMatch(p -> p.name().startsWith("OWNER_"))) {
      return;
    }
    Path real = dir.toRealPath();
    if (FileKind.isSticky(real) || real.getParent() == null) {
      LOG.warn(
          "state directory {} is shared (mode {}); not making it private: use a directory of its"
              + " own for --relay-dir",
          dir,
          PosixFilePermissions.toString(mode));
      return;
    }
    Files.setPosixFilePermissions(dir, DIR_MODE);
    LOG.info(
        "made state directory {} private: mode {} is now rwx------",
        dir,
        PosixFilePermissions.toString(mode));
  }

  private static boolean isPosix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
