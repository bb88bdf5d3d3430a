package io.criresmgr.cache;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache's file in {@code --relay-dir}: a versioned JSON snapshot, replaced atomically, and the
 * journal of the changes saved since ({@code cache.journal}). The format is described in {@code
 * docs/cache-format.md}, the reasons in {@code docs/adr/0003-cache-file-format-and-crash-safety.md}
 * and {@code docs/adr/0013-incremental-cache-journal.md}.
 *
 * <p>Saves are meant for one thread at a time (the methods are synchronized all the same).
 */
public final class CacheFile {
  /** The file name inside the relay directory, as in cri-resmgr. */
  public static final String NAME = "cache";

  /** The journal's file name inside the relay directory. */
  public static final String JOURNAL_NAME = NAME + ".journal";

  /** The journal grows to at least this many bytes before it is compacted into the file. */
  static final long MIN_JOURNAL_BYTES = 16 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(CacheFile.class);
  private static final String SAVING_SUFFIX = ".saving";
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
  private static final String FRESH_START = "; starting from the runtime's state";

  private final Path dir;
  private final Path file;
  private final Path saving;
  private final Path journal;
  private final Supplier<LocalDateTime> now;

  /** What the files hold after the last save or load, if known: the base of the next batch. */
  private @Nullable CacheSnapshot durable;

  /** The file's generation after the last load or full write; -1 if not known yet. */
  private long generation = -1;

  private long snapshotBytes;
  private long journalBytes;
  private boolean dirSyncWarned;
  // A load reads at most FileLimit.CACHE of the journal; smaller in tests.
  private final long journalLimit;

  /**
   * The cache file {@code <relayDir>/cache}. The local time zone is looked up only when a file is
   * moved aside: its first lookup searches the whole class path, which the daemon's start-up need
   * not wait for (docs/benchmarks.md, "Start-up").
   */
  public CacheFile(Path relayDir) {
    this(relayDir, LocalDateTime::now, FileLimit.CACHE.maxBytes());
  }

  /** The cache file {@code <relayDir>/cache}; {@code clock} dates files moved aside. */
  CacheFile(Path relayDir, Clock clock) {
    this(relayDir, clock, FileLimit.CACHE.maxBytes());
  }

  /** As {@link #CacheFile(Path, Clock)}, with a journal of at most {@code journalLimit} bytes. */
  CacheFile(Path relayDir, Clock clock, long journalLimit) {
    this(relayDir, on(Objects.requireNonNull(clock, "clock")), journalLimit);
  }

  private static Supplier<LocalDateTime> on(Clock clock) {
    return () -> LocalDateTime.now(clock);
  }

  private CacheFile(Path relayDir, Supplier<LocalDateTime> now, long journalLimit) {
    this.journalLimit = journalLimit;
    this.dir = Objects.requireNonNull(relayDir, "relayDir");
    this.file = relayDir.resolve(NAME);
    this.saving = relayDir.resolve(NAME + SAVING_SUFFIX);
    this.journal = relayDir.resolve(JOURNAL_NAME);
    this.now = now;
  }

  /** The file's path. */
  public Path path() {
    return file;
  }

  /** The journal's path. */
  public Path journalPath() {
    return journal;
  }

  /**
   * Reads the snapshot and replays the journal's batches of the snapshot's generation onto it. A
   * missing or empty file gives an empty result; a file that cannot be read, parsed or has another
   * version is moved aside and the result says where and why, as is one that is no regular file, is
   * larger than {@link FileLimit#CACHE} or links out of the relay directory (never opened, so a
   * FIFO cannot block and a device cannot fill the memory); its journal goes with it, as does a
   * journal whose batches do not fit the file. A journal ending in an incomplete or damaged frame
   * (a crash during a save) loses that frame and what follows, with a warning. A {@code .saving}
   * file left over by a crash during {@link #save} is deleted.
   */
  public synchronized LoadResult load() {
    durable = null;
    deleteLeftover();
    byte[] content;
    try {
      content = SafeFiles.readIn(dir, file, FileLimit.CACHE);
    } catch (NoSuchFileException e) {
      return nothingCached();
    } catch (RefusedFileException e) {
      return moveAside(e.getReason());
    } catch (IOException e) {
      return moveAside("cannot be read (" + describe(e) + ")");
    }
    if (isBlank(content)) {
      return nothingCached();
    }
    try {
      ObjectNode root = SnapshotJson.parse(content);
      SnapshotJson.checkFileVersion(root);
      long fileGeneration = SnapshotJson.generation(root);
      generation = fileGeneration;
      boolean replayed = replay(root, fileGeneration);
      CacheSnapshot snapshot = bindReplayed(root, replayed);
      return new LoadResult(Optional.of(snapshot), Optional.empty());
    } catch (UnusableException e) {
      return moveAside(Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  // No file: a journal left without one has nothing to apply to; the next save replaces it.
  private LoadResult nothingCached() {
    generation = Math.max(0, journalGeneration());
    return new LoadResult(Optional.empty(), Optional.empty());
  }

  private CacheSnapshot bindReplayed(ObjectNode root, boolean replayed) throws UnusableException {
    try {
      return SnapshotJson.bind(root);
    } catch (UnusableException e) {
      throw replayed
          ? new UnusableException("with its journal " + journal + " " + e.getMessage())
          : e;
    }
  }

  /**
   * Replays the journal's complete frames of {@code fileGeneration} onto {@code root}; true if
   * there were any.
   */
  private boolean replay(ObjectNode root, long fileGeneration) throws UnusableException {
    JournalFrames.Contents contents = readJournal(true);
    generation = Math.max(generation, contents.highestGeneration());
    int applied = 0;
    int stale = 0;
    for (JournalFrames.Frame frame : contents.frames()) {
      if (frame.generation() != fileGeneration) {
        stale++;
        continue;
      }
      try {
        JournalJson.apply(root, frame.batch());
      } catch (IOException | RuntimeException e) {
        String message = e.getMessage() != null ? e.getMessage() : e.toString();
        throw new UnusableException(
            "with its journal "
                + journal
                + " is corrupt (batch "
                + (applied + 1)
                + ": "
                + message
                + ")");
      }
      applied++;
    }
    if (stale > 0) {
      LOG.info(
          "ignored {} batches of {} written for an earlier full write of {}", stale, journal, file);
    }
    return applied > 0;
  }

  /** The highest generation the journal's frames name, -1 if none or it cannot be read. */
  private long journalGeneration() {
    try {
      return readJournal(false).highestGeneration();
    } catch (UnusableException e) {
      return -1;
    }
  }

  /**
   * The journal's complete frames; none if there is no journal. A dropped tail is reported (a
   * warning) if {@code report}.
   *
   * @throws UnusableException if it cannot be read
   */
  private JournalFrames.Contents readJournal(boolean report) throws UnusableException {
    byte[] content;
    try {
      content = SafeFiles.readIn(dir, journal, FileLimit.CACHE);
    } catch (NoSuchFileException e) {
      return new JournalFrames.Contents(List.of(), 0);
    } catch (RefusedFileException e) {
      throw new UnusableException("with its journal " + journal + " " + e.getReason());
    } catch (IOException e) {
      throw new UnusableException(
          "with its journal " + journal + " cannot be read (" + describe(e) + ")");
    }
    JournalFrames.Contents contents = JournalFrames.read(content);
    if (report && contents.validBytes() < content.length) {
      LOG.warn(
          "cache journal {} ends in an incomplete or damaged batch, as a crash during a save"
              + " leaves one: dropped its last {} bytes, from byte {}; the batches before are"
              + " restored",
          journal,
          content.length - contents.validBytes(),
          contents.validBytes());
    }
    return contents;
  }

  /**
   * Persists {@code snapshot}: appends what changed since the last save to the journal as one batch
   * and forces it to disk; or, on the first save, after a failed one, or once the journal has grown
   * past the file's size, writes the whole snapshot (see {@link #compact(CacheSnapshot)}). Either
   * way a crash leaves the previous state or this one.
   *
   * @throws CacheException if it cannot be written
   */
  public synchronized void save(CacheSnapshot snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    CacheSnapshot base = durable;
    durable = null; // until this save succeeded: the next one then writes the whole snapshot
    if (base == null || journalBytes >= Math.max(snapshotBytes, MIN_JOURNAL_BYTES)) {
      writeWhole(snapshot);
    } else {
      append(base, snapshot);
    }
    durable = snapshot;
  }

  /**
   * Writes {@code snapshot} whole to a new {@code <file>.saving} (mode 0600), forces it to disk,
   * renames it over the file atomically, and then deletes the journal, whose batches the new file
   * includes (and whose generation it no longer has, so a crash before the delete is harmless).
   * Creates the relay directory (mode 0700) if it is missing; the daemon makes an existing one
   * private once at start ({@link StateDirectory#ensurePrivate}), not at every save.
   *
   * @throws CacheException if it cannot be written
   */
  public synchronized void compact(CacheSnapshot snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    durable = null;
    writeWhole(snapshot);
    durable = snapshot;
  }

  /**
   * Writes the last saved snapshot whole if the journal holds batches, so the file alone is
   * complete (as the daemon leaves it when it stops).
   *
   * @throws CacheException if it cannot be written
   */
  public synchronized void compact() {
    CacheSnapshot last = durable;
    if (last != null && journalBytes > 0) {
      compact(last);
    }
  }

  private void writeWhole(CacheSnapshot snapshot) {
    long next = (generation >= 0 ? generation : onDiskGeneration()) + 1;
    byte[] content;
    try {
      content = SnapshotJson.encode(snapshot, next);
    } catch (JsonProcessingException e) {
      throw new CacheException("cannot encode the cache snapshot: " + e.getOriginalMessage(), e);
    }
    try {
      if (!Files.isDirectory(dir)) {
        StateDirectory.ensurePrivate(dir);
      }
      writeSynced(content);
      Files.move(saving, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      generation = next;
      syncDir();
      snapshotBytes = content.length;
      Files.deleteIfExists(journal);
      journalBytes = 0;
    } catch (IOException e) {
      deleteQuietly(saving);
      throw cannotWrite(file, e);
    }
  }

  private void append(CacheSnapshot base, CacheSnapshot snapshot) {
    byte[] batch;
    try {
      batch = JournalJson.changes(base, snapshot);
    } catch (JsonProcessingException e) {
      throw new CacheException("cannot encode the cache's changes: " + e.getOriginalMessage(), e);
    }
    if (batch == null) {
      return;
    }
    byte[] frame = JournalFrames.frame(generation, batch);
    if (journalBytes + frame.length > journalLimit) {
      // A load reads at most this much of the journal (and would set aside the file with it): a
      // batch that would grow it past that is written as a whole snapshot instead.
      writeWhole(snapshot);
      return;
    }
    boolean create = journalBytes == 0;
    try {
      writeJournal(frame, create);
      if (create) {
        syncDir();
      }
      journalBytes += frame.length;
    } catch (IOException e) {
      throw cannotWrite(journal, e);
    }
  }

  // The first batch creates the journal (CREATE_NEW never follows a link nor opens a FIFO put in
  // its place, and the full write before deleted the previous one); later ones append to it.
  private void writeJournal(byte[] frame, boolean create) throws IOException {
    try (FileChannel channel = openJournal(create)) {
      if (create) {
        StateDirectory.makePrivate(journal); // the umask may have taken bits away
      }
      ByteBuffer buffer = ByteBuffer.wrap(frame);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(false); // the data and the file's length, which reading it back needs
    }
  }

  private FileChannel openJournal(boolean create) throws IOException {
    if (create) {
      Set<StandardOpenOption> options =
          Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
      return FileChannel.open(journal, options, StateDirectory.privateFile(dir));
    }
    return FileChannel.open(
        journal, StandardOpenOption.WRITE, StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * The highest generation the files on disk name (the file's, its journal's), for a save before
   * any load: the next full write must name a generation no journal there was written for.
   */
  private long onDiskGeneration() {
    long fileGeneration = 0;
    try {
      byte[] content = SafeFiles.readIn(dir, file, FileLimit.CACHE);
      fileGeneration = SnapshotJson.generation(SnapshotJson.parse(content));
    } catch (IOException | UnusableException e) {
      // Nothing usable there: no journal can apply to it.
    }
    return Math.max(fileGeneration, journalGeneration());
  }

  private CacheException cannotWrite(Path what, IOException e) {
    return new CacheException(
        "cannot write cache file "
            + what
            + " ("
            + describe(e)
            + "); check that "
            + dir
            + " is a writable directory with free space",
        e);
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

  // Makes the rename durable too; not every platform can sync a directory, and without it a power
  // loss may bring back the previous complete snapshot (never a torn one) without the journal
  // batches of its generation: an older consistent state. Said once, since it repeats every save.
  private void syncDir() {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      if (!dirSyncWarned) {
        dirSyncWarned = true;
        LOG.warn(
            "cannot sync directory {} ({}): after a power loss the cache may come back older than"
                + " its last saves; the start reconciles it with the runtime",
            dir,
            describe(e));
      }
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
      return problem(what + " and was moved to " + aside + moveJournal(aside) + FRESH_START);
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

  // The journal belongs to the file moved aside: it goes with it (as <aside>.journal).
  private String moveJournal(Path aside) {
    if (!Files.exists(journal, LinkOption.NOFOLLOW_LINKS)) {
      return "";
    }
    Path target = aside.resolveSibling(aside.getFileName() + ".journal");
    try {
      return ", its journal to " + makePrivate(Files.move(journal, target));
    } catch (IOException e) {
      deleteQuietly(journal);
      return ", its journal deleted (" + describe(e) + ")";
    }
  }

  /**
   * The JSON the cache files of {@code relayDir} hold now: the file with its journal's batches
   * replayed, read as {@link #load} reads them but without changing or reporting anything. Empty if
   * there is no file or it cannot be read; batches that cannot be replayed are left out.
   */
  public static Optional<JsonNode> current(Path relayDir) {
    byte[] fileContent;
    ObjectNode root;
    try {
      fileContent = SafeFiles.readIn(relayDir, relayDir.resolve(NAME), FileLimit.CACHE);
      root = SnapshotJson.parse(fileContent);
    } catch (IOException | UnusableException e) {
      return Optional.empty();
    }
    long fileGeneration = SnapshotJson.generation(root);
    List<byte[]> batches = new ArrayList<>();
    try {
      byte[] content = SafeFiles.readIn(relayDir, relayDir.resolve(JOURNAL_NAME), FileLimit.CACHE);
      for (JournalFrames.Frame frame : JournalFrames.read(content).frames()) {
        if (frame.generation() == fileGeneration) {
          batches.add(frame.batch());
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.of(root); // no journal, or one that cannot be read: the file as it is
    }
    int applied = 0;
    try {
      for (byte[] batch : batches) {
        JournalJson.apply(root, batch);
        applied++;
      }
      return Optional.of(root);
    } catch (IOException | RuntimeException e) {
      // The failed batch may be half applied: the state before it, from the file again.
    }
    try {
      ObjectNode before = SnapshotJson.parse(fileContent);
      for (byte[] batch : batches.subList(0, applied)) {
        JournalJson.apply(before, batch);
      }
      return Optional.of(before);
    } catch (IOException | UnusableException | RuntimeException e) {
      return Optional.empty(); // applied before: cannot happen
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
