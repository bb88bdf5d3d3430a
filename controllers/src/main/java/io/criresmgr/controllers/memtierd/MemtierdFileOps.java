package io.criresmgr.controllers.memtierd;

import io.criresmgr.cache.files.FileLimit;
import io.criresmgr.cache.files.SafeFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** File handling of the memtierd output directories. */
final class MemtierdFileOps {
  private static final Logger LOG = LoggerFactory.getLogger(MemtierdFileOps.class);

  private MemtierdFileOps() {}

  /**
   * Creates {@code dir} under {@code runDir} with mode 0700; each existing part below {@code
   * runDir} must be a real directory, not a symbolic link (the output is written as root).
   */
  static void prepareDir(Path runDir, Path dir) throws IOException {
    Files.createDirectories(runDir);
    Path current = runDir;
    for (Path part : runDir.relativize(dir)) {
      current = current.resolve(part);
      if (Files.isSymbolicLink(current)) {
        throw new IOException(current + " is a symbolic link, expected a directory");
      }
      try {
        Files.createDirectory(current);
      } catch (FileAlreadyExistsException e) {
        if (!Files.isDirectory(current, LinkOption.NOFOLLOW_LINKS)) {
          throw new IOException(current + " exists and is not a directory", e);
        }
      }
      Files.setPosixFilePermissions(current, PosixFilePermissions.fromString("rwx------"));
    }
  }

  /**
   * Writes {@code text} to a fresh sibling temporary file (mode 0600) and renames it over {@code
   * file}.
   */
  static void writeAtomically(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    Files.createFile(
        tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tmp, text, StandardCharsets.UTF_8, StandardOpenOption.WRITE);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * The pid in {@code file}, empty if it is missing or malformed, or not a regular file of its
   * directory of at most {@link FileLimit#SMALL}.
   */
  static Optional<Long> readPid(Path file) {
    try {
      return Optional.of(Long.parseLong(readSmall(file).strip())).filter(p -> p > 0);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | NumberFormatException e) {
      LOG.warn("ignoring unreadable memtierd pid file {}: {}", file, e.toString());
      return Optional.empty();
    }
  }

  /**
   * The text of {@code file}, a file of the daemon's in a directory of its own: a regular file of
   * at most {@link FileLimit#SMALL}, a symbolic link only within that directory.
   */
  static String readSmall(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    return SafeFiles.readUtf8In(dir == null ? file : dir, file, FileLimit.SMALL);
  }

  /** Deletes {@code dir} and everything in it; a failure is logged, not thrown. */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("cannot remove memtierd directory {}: {}", dir, e.toString());
    }
  }

  /** The containers that have a pid file under {@code runDir}. */
  static List<MemtierdContainer> containersWithPidFiles(Path runDir) {
    List<MemtierdContainer> found = new ArrayList<>();
    if (!Files.isDirectory(runDir)) {
      return found;
    }
    try (Stream<Path> files = Files.find(runDir, 4, (p, a) -> isPidFile(runDir, p))) {
      for (Path f : files.toList()) {
        Path rel = runDir.relativize(f.getParent());
        found.add(
            new MemtierdContainer(
                rel.getName(0).toString(), rel.getName(1).toString(), rel.getName(2).toString()));
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("cannot list memtierd directories under {}: {}", runDir, e.toString());
    }
    return found;
  }

  private static boolean isPidFile(Path runDir, Path p) {
    return p.getFileName().toString().equals("memtierd.pid")
        && runDir.relativize(p).getNameCount() == 4;
  }
}
