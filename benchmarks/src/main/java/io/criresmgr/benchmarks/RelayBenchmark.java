package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.VersionResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A unary CRI {@code Version} call from a generated blocking stub over a real Unix socket, per
 * {@link Route}: direct to the backend, via the cri-resmgr daemon, via a bare relay. Latency
 * (sample time, µs, with percentiles) and throughput (calls/s), with 1 and 8 client threads that
 * share one channel.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class RelayBenchmark {
  /** The route under test; each value gets its own backend, relay and client. */
  @Param({"DIRECT", "CRI_RESMGR", "BARE_RELAY"})
  public Route route = Route.DIRECT;

  private Path dir = Path.of("");
  private Testbed bed;
  private RuntimeServiceBlockingStub stub;

  /** Starts the route's parts in a fresh short temporary directory (socket paths are limited). */
  @Setup(Level.Trial)
  public void start() throws Exception {
    dir = Files.createTempDirectory("crb");
    bed = Testbed.start(route, dir);
    stub = bed.stub();
  }

  /** Stops everything and deletes the temporary directory. */
  @TearDown(Level.Trial)
  public void stop() throws IOException {
    bed.close();
    deleteTree(dir);
  }

  /** Deletes {@code dir} and everything below it. */
  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(RelayBenchmark::delete);
    }
  }

  /** Latency of one call, one client. */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  @Threads(1)
  public VersionResponse latencyOneClient() {
    return stub.version(Testbed.REQUEST);
  }

  /** Latency of one call, eight concurrent clients on one channel. */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  @Threads(8)
  public VersionResponse latencyEightClients() {
    return stub.version(Testbed.REQUEST);
  }

  /** Calls per second, one client. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @Threads(1)
  public VersionResponse throughputOneClient() {
    return stub.version(Testbed.REQUEST);
  }

  /** Calls per second, eight concurrent clients on one channel. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @Threads(8)
  public VersionResponse throughputEightClients() {
    return stub.version(Testbed.REQUEST);
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
