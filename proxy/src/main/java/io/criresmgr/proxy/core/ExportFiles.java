package io.criresmgr.proxy.core;

import io.criresmgr.cache.files.StateDirectory;
import io.criresmgr.grpc.unix.Shutdown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of {@link ExportedResources}: {@code <root>/<directory>/resources.sh}, written and
 * removed on a thread of its own, so that a step which changes the shared CPUs of hundreds of
 * containers does not wait for hundreds of file replacements (docs/benchmarks.md). Coalescing: one
 * pass over what is pending per {@link #INTERVAL}, writing only the newest content handed over for
 * a directory; a write made on the caller's thread ({@link #writePending}, for a container the
 * runtime is creating or about to start) takes the newest content still pending, so a file never
 * goes back to older content.
 *
 * <p>Why: docs/adr/0006-exported-resources-off-the-pipeline.md.
 */
final class ExportFiles implements AutoCloseable {
  static final String FILE = "resources.sh";

  private static final Logger LOG = LoggerFactory.getLogger(ExportFiles.class);
  private static final String TEMP = "." + FILE + ".tmp";
  private static final Set<PosixFilePermission> PRIVATE =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwxr-xr-x");
  private static final Set<PosixFilePermission> READABLE =
      PosixFilePermissions.fromString("rw-r--r--");
  private static final Duration CLOSE_LIMIT = Duration.ofSeconds(5);
  static final int LOCKS = 64;

  /**
   * At most one pass over pending files per interval: a burst of steps rewrites a container's file
   * once per interval, not once per step. The first change after a quiet interval goes at once.
   */
  static final Duration INTERVAL = Duration.ofMillis(100);

  /** How long after a failed write it is tried again, until it succeeds or newer content comes. */
  static final Duration RETRY = Duration.ofSeconds(10);

  private final Path root;
  private final BiConsumer<String, String> failed;
  private final Duration retryAfter;

  /**
   * By directory: content whose write failed and that nothing newer replaced yet, tried again every
   * {@link #retryAfter} (an entry changed holding its directory's lock): a container created while
   * the disk was full gets its file once there is room, not only at its next change.
   */
  private final Map<String, String> retry = new ConcurrentHashMap<>();

  private final AtomicBoolean retryScheduled = new AtomicBoolean();

  /**
   * By directory: the content to write (a {@code String}), or {@link #REMOVE} to remove the
   * directory. Not an {@code Optional}: a step hands over hundreds of files (docs/benchmarks.md,
   * "Issue 20: bytes per decision").
   */
  private final Map<String, Object> pending = new ConcurrentHashMap<>();

  /** The pending entry of a directory to remove. */
  private static final Object REMOVE = new Object();

  private final AtomicBoolean scheduled = new AtomicBoolean();

  /**
   * The locks of the directories, by their names' hashes: a directory's content is taken and
   * written holding its lock, so that a write on the caller's thread and the writer's pass never
   * write older content over newer. One lock for all made the caller's {@link #prepare} of a new
   * container wait for the writer's thread to write another container's file (docs/benchmarks.md,
   * "Issue 20: the fourth round on a quiet machine").
   */
  private final Object[] locks = new Object[LOCKS];

  private final Object rootLock = new Object();

  /** Directories made by this process and not removed since (changed holding their locks). */
  private final Set<String> made = ConcurrentHashMap.newKeySet();

  private volatile boolean rootChecked;

  /**
   * By directory: the content this process last wrote to its file (changed as made is). A pass
   * skips a file whose pending content is that: a create and a remove between two passes leave the
   * shared containers' files as they were, and rewriting them cost the writer 1.5-2 ms of CPU per
   * operation at 2,000 containers (docs/benchmarks.md, "Issue 20: re-assigned containers").
   */
  private final Map<String, String> written = new ConcurrentHashMap<>();

  private volatile long lastDrain = System.nanoTime() - INTERVAL.toNanos();
  private final ScheduledExecutorService writer = writer();

  /**
   * The writer's thread. Delayed tasks do not hold up its shutdown: {@link #close} writes what is
   * pending itself, and a retry of a failed write can wait for the next start, which rewrites every
   * file.
   */
  private static ScheduledExecutorService writer() {
    ScheduledThreadPoolExecutor writer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "cri-resmgr-exported-resources");
              t.setDaemon(true);
              return t;
            });
    writer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    return writer;
  }

  /**
   * Files under {@code root}; {@code failed} hears of a content a background write could not write
   * (directory, content).
   */
  ExportFiles(Path root, BiConsumer<String, String> failed) {
    this(root, failed, RETRY);
  }

  /**
   * As {@link #ExportFiles(Path, BiConsumer)}, failed writes tried again after {@code retryAfter}.
   */
  ExportFiles(Path root, BiConsumer<String, String> failed, Duration retryAfter) {
    this.root = root;
    this.failed = failed;
    this.retryAfter = retryAfter;
    for (int i = 0; i < LOCKS; i++) {
      locks[i] = new Object();
    }
  }

  /** The lock of directory {@code name}. */
  private Object lock(String name) {
    return locks[Math.floorMod(name.hashCode(), LOCKS)];
  }

  /**
   * Writes {@code content} as {@code name}'s file now, in place of any write or removal still
   * pending; false if it could not (logged).
   */
  boolean writeNow(String name, String content) {
    synchronized (lock(name)) {
      pending.remove(name);
      return write(name, content);
    }
  }

  /**
   * Makes {@code name}'s directory now, for a container the runtime is about to create (it mounts
   * the directory, not the file), and holds {@code content} for {@link #writePending}, which writes
   * it once the create is on its way; false if the directory could not be made (logged). Until then
   * the content is pending like one of {@link #writeLater}, only without a pass scheduled: a newer
   * content or a removal handed over meanwhile replaces it
   * (docs/adr/0015-created-containers-file-written-while-the-runtime-creates.md).
   */
  boolean prepare(String name, String content) {
    synchronized (lock(name)) {
      if (!makeDirectory(name)) {
        pending.remove(name);
        return false;
      }
      pending.put(name, content);
      return true;
    }
  }

  /**
   * Writes the content pending for {@code name} now, on the caller's thread, if there is one; a
   * write of it in progress on the writer's thread is waited for. A pending removal is left to the
   * writer's thread. False if the write failed (logged, and reported as a failed background write
   * is).
   */
  boolean writePending(String name) {
    synchronized (lock(name)) {
      if (!(pending.get(name) instanceof String content)) {
        return true; // nothing pending, or a removal
      }
      pending.remove(name);
      if (!write(name, content)) {
        failedWrite(name, content);
        return false;
      }
      return true;
    }
  }

  /**
   * Removes {@code name}'s directory now, with what this process knows of it (made, written, to
   * retry); a failure is logged. Content handed over for it later, or still pending, is written as
   * usual.
   */
  void deleteNow(String name) {
    synchronized (lock(name)) {
      delete(name);
    }
  }

  /** Writes {@code content} as {@code name}'s file soon, unless newer content comes first. */
  void writeLater(String name, String content) {
    later(name, content);
  }

  /** Removes {@code name}'s directory soon, unless it is written again first. */
  void deleteLater(String name) {
    later(name, REMOVE);
  }

  /** Hands over {@code content}: a {@code String}, or {@link #REMOVE}. */
  private void later(String name, Object content) {
    pending.put(name, content);
    if (scheduled.compareAndSet(false, true)) {
      long wait = lastDrain + INTERVAL.toNanos() - System.nanoTime();
      try {
        // drain logs its own failures.
        var unused = writer.schedule(this::drain, Math.max(0, wait), TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException e) {
        LOG.debug("exported resources of {} not written: closed", name);
      }
    }
  }

  private void drain() {
    lastDrain = System.nanoTime();
    scheduled.set(false);
    for (String name : List.copyOf(pending.keySet())) { // a name put meanwhile: the next drain
      // Taken and written under the directory's lock: a writeNow or writePending in between cannot
      // be overwritten by it.
      synchronized (lock(name)) {
        Object taken = pending.remove(name);
        if (taken == null) {
          continue; // written by writeNow or writePending meanwhile
        }
        if (!(taken instanceof String content)) {
          delete(name); // REMOVE
        } else if (!onDisk(name, content) && !write(name, content)) {
          failedWrite(name, content);
        }
      }
    }
  }

  /**
   * Whether {@code content} is what this process last wrote to {@code name}'s file and that file is
   * still there (a file removed behind its back, with the content changed and changed back between
   * two passes, is written again). A {@code stat}, where a write is a temporary file and a rename.
   */
  private boolean onDisk(String name, String content) {
    return content.equals(written.get(name))
        && Files.isRegularFile(root.resolve(name).resolve(FILE), LinkOption.NOFOLLOW_LINKS);
  }

  /** Keeps {@code content} for a later try and tells {@code failed}; holding the lock of name. */
  private void failedWrite(String name, String content) {
    retry.put(name, content);
    failed.accept(name, content);
    if (retryScheduled.compareAndSet(false, true)) {
      try {
        var unused = writer.schedule(this::retryFailed, retryAfter.toNanos(), TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException e) {
        LOG.debug("exported resources of {} not retried: closed", name);
      }
    }
  }

  /**
   * On the writer's thread: tries the failed writes again, except those that newer content or a
   * removal handed over since replaces (written by its own pass); what fails again waits for the
   * next try.
   */
  private void retryFailed() {
    retryScheduled.set(false);
    for (String name : List.copyOf(retry.keySet())) {
      synchronized (lock(name)) {
        String content = retry.get(name);
        if (content == null) {
          continue; // written or removed since
        }
        if (pending.containsKey(name)) {
          retry.remove(name);
        } else if (write(name, content)) {
          LOG.info("exported resources to {} written at last", root.resolve(name).resolve(FILE));
        } else {
          failedWrite(name, content);
        }
      }
    }
  }

  /** Whether content or a removal is handed over for {@code name} and not yet taken (tests). */
  boolean isPending(String name) {
    return pending.containsKey(name);
  }

  /** Runs the retry of failed writes now on the writer's thread, and waits for it (tests). */
  void retryNow(Duration limit) throws InterruptedException, TimeoutException {
    try {
      writer.submit(this::retryFailed).get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Writes what was handed over before the call now, and waits for it (tests). */
  void await(Duration limit) throws InterruptedException, TimeoutException {
    try {
      writer.submit(this::drain).get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Writes what is pending (for at most five seconds) and stops the thread. */
  @Override
  public void close() {
    try {
      writer.execute(this::drain);
    } catch (RejectedExecutionException e) {
      return; // closed before
    }
    Shutdown.gracefully(
        Shutdown.of(writer),
        CLOSE_LIMIT,
        Duration.ZERO,
        () ->
            LOG.warn(
                "exported resources of {} containers not written at shutdown; the next start"
                    + " rewrites them",
                pending.size()));
  }

  /** Makes {@code name}'s directory unless this process made it already; false if it cannot. */
  private boolean makeDirectory(String name) {
    if (made.contains(name)) {
      return true;
    }
    Path dir = root.resolve(name);
    try {
      if (!rootChecked) {
        // Once: a root that is a symbolic link is refused (createRoot looks without following
        // links), where the mkdir below would follow it and make the directory elsewhere.
        createRoot();
        rootChecked = true;
      }
      boolean madeNow;
      try {
        madeNow = mkdir(dir);
      } catch (IOException e) {
        // The root is missing or is no directory: made as the daemon makes it, or the reason why
        // not, then the directory again.
        createRoot();
        madeNow = mkdir(dir);
      }
      if (madeNow) {
        Files.setPosixFilePermissions(dir, DIR);
      }
      made.add(name);
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      warnOnce(name, dir, e);
      return false;
    }
  }

  /** Warns of a failure, but only at debug level while a retry of {@code name} is waiting. */
  private void warnOnce(String name, Path dir, Exception e) {
    if (retry.containsKey(name)) {
      LOG.debug("exported resources to {} still not written: {}", dir.resolve(FILE), e.toString());
    } else {
      warn(dir, e);
    }
  }

  private boolean write(String name, String content) {
    Path dir = root.resolve(name);
    if (!makeDirectory(name)) {
      return false;
    }
    try {
      Path temp = dir.resolve(TEMP);
      // Truncated, not removed first: a temporary file left by a crash is simply reused.
      Files.writeString(
          temp,
          content,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE,
          LinkOption.NOFOLLOW_LINKS);
      Files.setPosixFilePermissions(temp, READABLE);
      Files.move(temp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
      written.put(name, content);
      retry.remove(name); // newer content written, or the retried one
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      // UnsupportedOperationException: a file system without POSIX modes; never fails a request.
      made.remove(name); // removed behind our back, perhaps: made again next time
      written.remove(name);
      warnOnce(name, dir, e);
      return false;
    }
  }

  private static void warn(Path dir, Exception e) {
    LOG.warn(
        "cannot export resources to {}: {} (a new container gets no /.cri-resmgr, or an empty"
            + " one if only the file failed; a running one keeps its last file)",
        dir.resolve(FILE),
        e.toString());
  }

  /**
   * The root, private, in a state directory made as the daemon makes it; one thread at a time (the
   * threads writing different directories may both find it missing).
   */
  private void createRoot() throws IOException {
    synchronized (rootLock) {
      if (Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
        return;
      }
      Path parent = root.toAbsolutePath().getParent();
      if (parent != null && !Files.exists(parent, LinkOption.NOFOLLOW_LINKS)) {
        StateDirectory.ensurePrivate(parent);
      }
      createDirectory(root, PRIVATE);
    }
  }

  private static void createDirectory(Path dir, Set<PosixFilePermission> mode) throws IOException {
    if (mkdir(dir)) {
      Files.setPosixFilePermissions(dir, mode);
    }
  }

  /**
   * Makes {@code dir}: true if made, false if a directory is there already. {@code mkdir} first, a
   * {@code stat} only when something exists: a new container's directory is made on the path the
   * create waits for (docs/benchmarks.md, "Issue 20: the intercepted path, a third time").
   */
  private static boolean mkdir(Path dir) throws IOException {
    try {
      Files.createDirectory(dir);
      return true;
    } catch (FileAlreadyExistsException e) {
      if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
      throw new IOException(dir + " exists and is not a directory", e);
    }
  }

  private void delete(String name) {
    made.remove(name);
    written.remove(name);
    retry.remove(name);
    try {
      deleteTree(root.resolve(name));
    } catch (IOException e) {
      LOG.warn("cannot remove exported resources {}: {}", root.resolve(name), e.toString());
    }
  }

  /** Deletes {@code path} and, if it is a directory (not a link to one), what it holds. */
  private static void deleteTree(Path path) throws IOException {
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
        for (Path entry : entries) {
          deleteTree(entry);
        }
      }
    }
    Files.deleteIfExists(path);
  }
}
