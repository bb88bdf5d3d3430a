package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One save of the cache when one container of {@code containers} changed (and with {@code
 * CONTAINER_AND_GRANT} its entry in the policy data), to real files on disk (fsyncs included):
 * {@code FULL_SNAPSHOT} writes the whole file every time, as every save did before the journal;
 * {@code JOURNAL} is {@code CacheFile.save}, appending the change and now and then compacting
 * (docs/adr/0013-incremental-cache-journal.md). At the end of each fork it prints the bytes written
 * and the saving thread's CPU time per save. The files go to a new directory in {@code
 * -Dcache.bench.dir} (default: {@code java.io.tmpdir}), deleted afterwards.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CacheSaveBenchmark {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** How a save writes. */
  public enum Write {
    FULL_SNAPSHOT,
    JOURNAL
  }

  /** Containers in the cache, two per pod. */
  @Param({"500"})
  public int containers = 500;

  /** The way of saving measured. */
  @Param({"FULL_SNAPSHOT", "JOURNAL"})
  public Write write = Write.JOURNAL;

  /** What differs between the two snapshots saved in turn. */
  public enum Change {
    /** One container's state. */
    CONTAINER,
    /**
     * One container's state and its entry in the policy data, as a decision changes them; the other
     * entries are the same instances, as topology-aware's are.
     */
    CONTAINER_AND_GRANT
  }

  /** The change measured. */
  @Param({"CONTAINER", "CONTAINER_AND_GRANT"})
  public Change change = Change.CONTAINER;

  private Path dir;
  private CacheFile file;
  private CacheSnapshot[] snapshots;
  private int next;
  private long saves;
  private long bytes;
  private long cpuNanos;

  /** Two snapshots that differ in one container's state, saved in turn; the first save is whole. */
  @Setup
  public void setUp() throws IOException {
    Path parent =
        Path.of(System.getProperty("cache.bench.dir", System.getProperty("java.io.tmpdir")));
    dir = Files.createTempDirectory(parent, "cache-save-bench");
    file = new CacheFile(dir);
    CacheSnapshot base = SnapshotEncodeBenchmark.snapshot(containers);
    Container one = base.containers().values().iterator().next();
    Map<String, Container> changed = new HashMap<>(base.containers());
    changed.put(one.cacheId(), one.withState(ContainerState.EXITED));
    snapshots =
        new CacheSnapshot[] {
          base,
          new CacheSnapshot(
              base.version(),
              base.pods(),
              changed,
              base.nextSeq(),
              base.activePolicy(),
              change == Change.CONTAINER ? base.policyData() : grantChanged(base, one),
              base.agentConfig(),
              base.adjustments())
        };
    file.save(base);
  }

  // The policy data of base with the entry of c changed, sharing the others.
  private static Map<String, JsonNode> grantChanged(CacheSnapshot base, Container c) {
    Map<String, JsonNode> data = new HashMap<>(base.policyData());
    data.replaceAll(
        (policy, old) -> {
          ObjectNode copy = JsonNodeFactory.instance.objectNode();
          old.properties().forEach(e -> copy.set(e.getKey(), e.getValue()));
          if (copy.get(c.cacheId()) instanceof ObjectNode entry) {
            copy.set(c.cacheId(), entry.deepCopy().put("cpus", "0-1"));
          }
          return copy;
        });
    return data;
  }

  /** One save of a snapshot differing from the last saved one in one container. */
  @Benchmark
  public void saveOneChange() throws IOException {
    long before = size(file.path()) + size(file.journalPath());
    long cpu = THREADS.getCurrentThreadCpuTime();
    next ^= 1;
    if (write == Write.FULL_SNAPSHOT) {
      file.compact(snapshots[next]);
    } else {
      file.save(snapshots[next]);
    }
    cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
    long journal = size(file.journalPath());
    long after = size(file.path()) + journal;
    // A whole write replaced the file (and emptied the journal): it wrote the file's size.
    bytes += after > before && journal > 0 ? after - before : size(file.path()) + journal;
    saves++;
  }

  /** Prints the bytes written and the CPU time per save, and deletes the files. */
  @TearDown
  public void tearDown() throws IOException {
    System.out.printf(
        "%n%s %s containers=%d: %d saves, %.0f bytes and %.1f µs CPU per save%n",
        write, change, containers, saves, (double) bytes / saves, cpuNanos / 1000.0 / saves);
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
