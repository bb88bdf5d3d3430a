package io.criresmgr.proxy.core;

import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.CacheSnapshot;
import io.criresmgr.grpc.unix.Shutdown;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes cache snapshots on its own thread so the pipeline never waits for the disk. Snapshots
 * offered while a write is running are coalesced: only the newest one is written. A snapshot may be
 * offered as a supplier, called only when the write is about to happen: the pipeline copies its
 * cache once per write instead of once per step (docs/benchmarks.md). Each write appends what
 * changed to the cache journal, now and then the whole snapshot, and {@link #close} leaves the
 * whole state in the file (docs/adr/0013-incremental-cache-journal.md). Losing the last few
 * milliseconds in a crash is safe because start-up reconciles the cache with the runtime
 * (docs/adr/0003-cache-file-format-and-crash-safety.md).
 */
public final class CacheSaver implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CacheSaver.class);

  private final CacheFile file;
  private final AtomicReference<@Nullable Supplier<CacheSnapshot>> next = new AtomicReference<>();
  private final ScheduledThreadPoolExecutor writer = newWriter();

  /** The shortest time between two writes. */
  static final long MIN_INTERVAL_MILLIS = 20;

  /**
   * After a write, the saver waits at least this many times as long as the write took: a large
   * cache (2,000 containers, a whole-file write every few saves) would otherwise keep a core busy
   * and its garbage would stop the pipeline thread (docs/benchmarks.md, "Issue 20: cache-side
   * copies"). The saver thus spends at most a quarter of a core.
   */
  static final long IDLE_PER_BUSY = 3;

  /** The longest {@link #IDLE_PER_BUSY} makes the saver wait (a disk stalling one sync). */
  static final long MAX_IDLE_MILLIS = 1000;

  /** How long a failed write waits before it is tried again (when nothing newer came). */
  static final long RETRY_MILLIS = 2000;

  private volatile @Nullable String failing;
  private volatile long lastWrite;
  private volatile long nextWrite;

  /** Saves to {@code file}. */
  public CacheSaver(CacheFile file) {
    this.file = Objects.requireNonNull(file, "file");
    lastWrite = now() - MIN_INTERVAL_MILLIS;
    nextWrite = lastWrite;
  }

  // Monotonic: a wall clock stepped back (NTP, an operator) must not make the saver sleep.
  private static long now() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
  }

  private static ScheduledThreadPoolExecutor newWriter() {
    ScheduledThreadPoolExecutor writer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "cache-saver");
              t.setDaemon(true);
              return t;
            });
    // A retry waiting for a broken disk must not delay shutdown: close() writes once more.
    writer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    return writer;
  }

  /** Schedules {@code snapshot} to be written (replacing an unwritten older one). */
  public void offer(CacheSnapshot snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    offer(() -> snapshot);
  }

  /**
   * Schedules a write of the snapshot {@code snapshot} gives when the write is due (replacing an
   * unwritten older one); it is called on the saver's thread, or on the closing one.
   */
  public void offer(Supplier<CacheSnapshot> snapshot) {
    if (next.getAndSet(snapshot) == null) {
      try {
        writer.execute(this::writeLatest);
      } catch (RejectedExecutionException e) {
        // Closing: close() writes what is pending.
      }
    }
  }

  private void writeLatest() {
    pause();
    Supplier<CacheSnapshot> supplier = next.getAndSet(null);
    if (supplier == null) {
      return;
    }
    CacheSnapshot snapshot;
    try {
      snapshot = supplier.get();
    } catch (RuntimeException e) {
      // The pipeline is stuck or closing: asked again later (close() asks once it has stopped).
      LOG.debug("no snapshot of the cache yet: {}", e.toString());
      askAgain(supplier);
      return;
    }
    try {
      long began = now();
      file.save(snapshot);
      long ended = now();
      nextWrite = ended + Math.min(IDLE_PER_BUSY * (ended - began), MAX_IDLE_MILLIS);
      if (failing != null) {
        failing = null;
        LOG.info("cache file {} is written again", file.path());
      }
    } catch (RuntimeException e) {
      // A CacheException, or anything else a save throws: the snapshot is lost all the same.
      if (failing == null) {
        LOG.error("cannot save the cache: {} (retrying every {} ms)", e.getMessage(), RETRY_MILLIS);
      }
      failing = "cannot save " + file.path() + ": " + e.getMessage();
      retry(snapshot);
    }
  }

  /** Writes {@code snapshot} again later, unless a newer one is on its way already. */
  private void retry(CacheSnapshot snapshot) {
    askAgain(() -> snapshot);
  }

  /** Calls {@code snapshot} again later, unless a newer one is on its way already. */
  private void askAgain(Supplier<CacheSnapshot> snapshot) {
    if (next.compareAndSet(null, snapshot)) {
      try {
        // writeLatest reports its own failures (problem(), the log).
        var unused = writer.schedule(this::writeLatest, RETRY_MILLIS, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        // Closing: close() writes what is pending.
      }
    }
  }

  /** Why the last write failed, for {@code /healthz}; empty while the file is written. */
  public Optional<String> problem() {
    return Optional.ofNullable(failing);
  }

  /**
   * Waits until {@link #MIN_INTERVAL_MILLIS} have passed since the last write began, and {@link
   * #IDLE_PER_BUSY} times its length since it ended, so a burst of changes costs one write (each
   * serializes what changed and syncs it to disk).
   */
  private void pause() {
    long wait = Math.max(lastWrite + MIN_INTERVAL_MILLIS, nextWrite) - now();
    if (wait > 0 && !writer.isShutdown()) {
      try {
        Thread.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    lastWrite = now();
  }

  /**
   * Writes what is pending, the whole state into the file if a journal holds part of it, and stops.
   */
  @Override
  public void close() {
    Shutdown.draining(Shutdown.of(writer), Duration.ofSeconds(10));
    writeLatest();
    if (failing == null) {
      try {
        file.compact();
      } catch (RuntimeException e) {
        // The file and its journal hold the state all the same; the next start replays it.
        LOG.warn("cannot write the whole cache into {}: {}", file.path(), e.getMessage());
      }
    }
  }
}
