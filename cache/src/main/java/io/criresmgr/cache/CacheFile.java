package io.criresmgr.cache;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.criresmgr.cache.SnapshotJson.UnusableException;
import io.criresmgr.cache.files.FileLimit;
import io.criresmgr.cache.files.RefusedFileException;
import io.criresmgr.cache.files.SafeFiles;
import io.criresmgr.cache.files.StateDirectory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache's file in {@code --relay-dir}: a versioned JSON snapshot, replaced atomically. The
 * format is described in {@code docs/cache-format.md}, the reasons in {@code
 * docs/adr/0003-cache-file-format-and-crash-safety.md}.
 */
public final class CacheFile {
  /** The file name inside the relay directory, as in cri-resmgr. */
  public static final String NAME = "cache";

  private static final Logger LOG = LoggerFactory.getLogger(CacheFile.class);
  private static final String SAVING_SUFFIX = ".saving";
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
  private static final String FRESH_START = "; starting from the runtime's state";

  private final Path dir;
  private final Path file;
  private final Path saving;
  private final Supplier<LocalDateTime> now;

  /**
   * The cache file {@code <relayDir>/cache}. The local time zone is looked up only when a file is
   * moved aside: its first lookup searches the whole class path, which the daemon's start-up need
   * not wait for (docs/benchmarks.md, "Start-up").
   */
  public CacheFile(Path relayDir) {
    this(relayDir, LocalDateTime::now);
  }

  /** The cache file {@code <relayDir>/cache}; {@code clock} dates files moved aside. */
  CacheFile(Path relayDir, Clock clock) {
    this(relayDir, on(Objects.requireNonNull(clock, "clock")));
  }

  private static Supplier<LocalDateTime> on(Clock clock) {
    return () -> LocalDateTime.now(clock);
  }

  private CacheFile(Path relayDir, Supplier<LocalDateTime> now) {
    this.dir = Objects.requireNonNull(relayDir, "relayDir");
    this.file = relayDir.resolve(NAME);
    this.saving = relayDir.resolve(NAME + SAVING_SUFFIX);
    this.now = now;
  }

  /** The file's path. */
  public Path path() {
    return file;
  }

  /**
   * Reads the snapshot. A missing or empty file gives an empty result; a file that cannot be read,
   * parsed or has another version is moved aside and the result says where and why, as is one that
   * is no regular file, is larger than {@link FileLimit#CACHE} or links out of the relay directory
   * (never opened, so a FIFO cannot block and a device cannot fill the memory). A {@code .saving}
   * file left over by a crash during {@link #save} is deleted.
   */
  public LoadResult load() {
    deleteLeftover();
    byte[] content;
    try {
      content = SafeFiles.readIn(dir, file, FileLimit.CACHE);
    } catch (NoSuchFileException e) {
      return new LoadResult(Optional.empty(), Optional.empty());
    } catch (RefusedFileException e) {
      return moveAside(e.getReason());
    } catch (IOException e) {
      return moveAside("cannot be read (" + describe(e) + ")");
    }
    if (isBlank(content)) {
      return new LoadResult(Optional.empty(), Optional.empty());
    }
    try {
      return new LoadResult(Optional.of(SnapshotJson.decode(content)), Optional.empty());
    } catch (UnusableException e) {
      return moveAside(Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  /**
   * Writes {@code snapshot} to a new {@code <file>.saving} (mode 0600), forces it to disk and
   * renames it over the file atomically, so a crash leaves either the old or the new snapshot.
   * Creates the relay directory (mode 0700) if it is missing; the daemon makes an existing one
   * private once at start ({@link StateDirectory#ensurePrivate}), not at every save.
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
      if (!Files.isDirectory(dir)) {
        StateDirectory.ensurePrivate(dir);
      }
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

  // A new file (CREATE_NEW never follows a link nor opens a FIFO put in its place) with mode 0600.
  private void writeSynced(byte[] content) throws IOException {
    Files.deleteIfExists(saving);
    Set<StandardOpenOption> options =
        Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    try (FileChannel channel = FileChannel.open(saving, options, StateDirectory.privateFile(dir))) {
      StateDirectory.makePrivate(saving); // the umask may have taken bits away
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
    String base = file.getFileName() + ".corrupt-" + now.get().format(STAMP);
    for (int n = 1; ; n++) {
      Path aside = file.resolveSibling(n == 1 ? base : base + "-" + n);
      try {
        // No REPLACE_EXISTING: an earlier corrupt file is evidence too, so never overwrite one.
        return makePrivate(Files.move(file, aside));
      } catch (FileAlreadyExistsException e) {
        if (n >= 1000) {
          throw e;
        }
      }
    }
  }

  // Only a regular file's mode: changing a link's would change its target's (e.g. /dev/zero).
  private static Path makePrivate(Path aside) {
    try {
      if (Files.isRegularFile(aside, LinkOption.NOFOLLOW_LINKS)) {
        StateDirectory.makePrivate(aside);
      }
    } catch (IOException e) {
      LOG.debug("cannot set mode 0600 on {}: {}", aside, describe(e));
    }
    return aside;
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
