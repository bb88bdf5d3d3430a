package io.criresmgr.cache;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.criresmgr.cache.SnapshotJson.UnusableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache's file in {@code --relay-dir}: a versioned JSON snapshot, replaced atomically. The
 * format is described in {@code docs/cache-format.md}.
 */
public final class CacheFile {
  /** The file name inside the relay directory, as in cri-resmgr. */
  public static final String NAME = "cache";

  private static final Logger LOG = LoggerFactory.getLogger(CacheFile.class);
  private static final String SAVING_SUFFIX = ".saving";
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
  private static final Set<PosixFilePermission> DIR_MODE =
      PosixFilePermissions.fromString("rwx--x---");
  private static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-r--r--");
  private static final String FRESH_START = "; starting from the runtime's state";

  private final Path dir;
  private final Path file;
  private final Path saving;
  private final Clock clock;

  /** The cache file {@code <relayDir>/cache}. */
  public CacheFile(Path relayDir) {
    this(relayDir, Clock.systemDefaultZone());
  }

  /** The cache file {@code <relayDir>/cache}; {@code clock} dates files moved aside. */
  CacheFile(Path relayDir, Clock clock) {
    this.dir = Objects.requireNonNull(relayDir, "relayDir");
    this.file = relayDir.resolve(NAME);
    this.saving = relayDir.resolve(NAME + SAVING_SUFFIX);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The file's path. */
  public Path path() {
    return file;
  }

  /**
   * Reads the snapshot. A missing or empty file gives an empty result; a file that cannot be read,
   * parsed or has another version is moved aside and the result says where and why. A {@code
   * .saving} file left over by a crash during {@link #save} is deleted.
   */
  public LoadResult load() {
    deleteLeftover();
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new LoadResult(Optional.empty(), Optional.empty());
    } catch (IOException e) {
      return moveAside("cannot be read (" + describe(e) + ")");
    }
    if (isBlank(content)) {
      return new LoadResult(Optional.empty(), Optional.empty());
    }
    try {
      return new LoadResult(Optional.of(SnapshotJson.decode(content)), Optional.empty());
    } catch (UnusableException e) {
      return moveAside(e.getMessage());
    }
  }

  /**
   * Writes {@code snapshot} to {@code <file>.saving} (mode 0644), forces it to disk and renames it
   * over the file atomically, so a crash leaves either the old or the new snapshot. Creates the
   * relay directory (mode 0710) if it is missing.
   *
   * @throws CacheException if it cannot be written
   */
  public void save(CacheSnapshot snapshot) {
    byte[] content;
    try {
      content = SnapshotJson.encode(snapshot);
    } catch (JsonProcessingException e) {
      throw new CacheException("cannot encode the cache snapshot: " + e.getOriginalMessage(), e);
    }
    try {
      createDir();
      writeSynced(content);
      Files.move(saving, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      syncDir();
    } catch (IOException e) {
      deleteQuietly(saving);
      throw new CacheException(
          "cannot write cache file "
              + file
              + " ("
              + describe(e)
              + "); check that "
              + dir
              + " is a writable directory with free space",
          e);
    }
  }

  private void createDir() throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try {
      Files.createDirectory(dir, attributes(DIR_MODE));
      setMode(dir, DIR_MODE); // the umask may have taken bits away
    } catch (FileAlreadyExistsException e) {
      // Created concurrently, or not a directory: then writing the file fails with a clear error.
    }
  }

  private void writeSynced(byte[] content) throws IOException {
    Set<StandardOpenOption> options =
        Set.of(
            StandardOpenOption.WRITE,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING);
    try (FileChannel channel = FileChannel.open(saving, options, attributes(FILE_MODE))) {
      setMode(saving, FILE_MODE);
      ByteBuffer buffer = ByteBuffer.wrap(content);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
  }

  // Makes the rename durable too; not every platform can sync a directory, and without it a crash
  // may bring back the previous complete snapshot, never a torn one.
  private void syncDir() {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      LOG.debug("cannot sync directory {}: {}", dir, describe(e));
    }
  }

  private void deleteLeftover() {
    try {
      if (Files.deleteIfExists(saving)) {
        LOG.info("deleted {}, left over from a save interrupted by a crash", saving);
      }
    } catch (IOException e) {
      LOG.warn("cannot delete {} ({}); the next save replaces it", saving, describe(e));
    }
  }

  private LoadResult moveAside(String reason) {
    String what = "cache file " + file + " " + reason;
    try {
      Path aside = moveToUniqueName();
      return problem(what + " and was moved to " + aside + FRESH_START);
    } catch (IOException e) {
      return problem(
          what
              + " and could not be moved aside ("
              + describe(e)
              + ")"
              + FRESH_START
              + "; the next save replaces it");
    }
  }

  private Path moveToUniqueName() throws IOException {
    String base = file.getFileName() + ".corrupt-" + LocalDateTime.now(clock).format(STAMP);
    for (int n = 1; ; n++) {
      Path aside = file.resolveSibling(n == 1 ? base : base + "-" + n);
      try {
        // No REPLACE_EXISTING: an earlier corrupt file is evidence too, so never overwrite one.
        return Files.move(file, aside);
      } catch (FileAlreadyExistsException e) {
        if (n >= 1000) {
          throw e;
        }
      }
    }
  }

  private static LoadResult problem(String text) {
    return new LoadResult(Optional.empty(), Optional.of(text));
  }

  private static boolean isBlank(byte[] content) {
    for (byte b : content) {
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  private FileAttribute<?>[] attributes(Set<PosixFilePermission> mode) {
    return isPosix()
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(mode)}
        : new FileAttribute<?>[0];
  }

  private void setMode(Path path, Set<PosixFilePermission> mode) throws IOException {
    if (isPosix()) {
      Files.setPosixFilePermissions(path, mode);
    }
  }

  private boolean isPosix() {
    return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.debug("cannot delete {}: {}", path, describe(e));
    }
  }

  private static String describe(IOException e) {
    if (e instanceof FileSystemException fs) {
      String reason = fs.getReason() != null ? fs.getReason() : e.getClass().getSimpleName();
      return fs.getFile() != null ? fs.getFile() + ": " + reason : reason;
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /**
   * The outcome of {@link #load}.
   *
   * @param snapshot what was restored, if anything
   * @param problem why the file was not restored (already moved aside), if it was not
   */
  public record LoadResult(Optional<CacheSnapshot> snapshot, Optional<String> problem) {
    /** Checks for nulls. */
    public LoadResult {
      Objects.requireNonNull(snapshot, "snapshot");
      Objects.requireNonNull(problem, "problem");
    }
  }
}
