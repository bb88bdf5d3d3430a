package io.criresmgr.benchmarks;

import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.CacheSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The cache file saving the two states around one decision in turn (the allocation, then as if it
 * were undone), so every save is one decision's journal batch, now and then a whole write: what the
 * cache saver writes per decision when it keeps up. Counts the bytes written and the CPU time; the
 * files go to a new directory in {@code java.io.tmpdir}, deleted by {@link #close}.
 */
final class DecisionSaves implements AutoCloseable {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Path dir;
  private final CacheFile file;
  private final List<CacheSnapshot> states;
  private int next;
  private long saves;
  private long bytes;
  private long cpuNanos;

  /** Saves {@code states} in turn, the first whole. */
  DecisionSaves(List<CacheSnapshot> states) {
    this.states = List.copyOf(states);
    try {
      dir = Files.createTempDirectory("decision-saves");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    file = new CacheFile(dir);
    file.save(this.states.get(0));
  }

  /** Saves the next state. */
  void saveNext() {
    long before = size(file.path()) + size(file.journalPath());
    long cpu = THREADS.getCurrentThreadCpuTime();
    next = (next + 1) % states.size();
    file.save(states.get(next));
    cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
    long journal = size(file.journalPath());
    long after = size(file.path()) + journal;
    // A whole write replaced the file (and emptied the journal): it wrote the file's size.
    bytes += after > before && journal > 0 ? after - before : size(file.path()) + journal;
    saves++;
  }

  /** What one save wrote and cost, on average. */
  String summary() {
    return String.format(
        "%d saves, %.0f bytes and %.1f µs CPU per save (file %d bytes)",
        saves, (double) bytes / saves, cpuNanos / 1000.0 / saves, size(file.path()));
  }

  @Override
  public void close() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }

  private static long size(Path path) {
    try {
      return Files.exists(path) ? Files.size(path) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
