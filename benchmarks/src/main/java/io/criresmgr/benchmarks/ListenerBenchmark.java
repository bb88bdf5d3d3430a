package io.criresmgr.benchmarks;

import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.proxy.dump.MessageDumper;
import io.criresmgr.proxy.metrics.RelayMetrics;
import io.criresmgr.proxy.relay.CompositeRelayListener;
import io.criresmgr.proxy.relay.RelayListener;
import io.criresmgr.proxy.relay.RelayListener.CallTrace;
import io.grpc.Status;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * CPU cost per relayed call of the relay listeners alone (no sockets): what the daemon adds to a
 * bare relay on the transport threads. Each operation is one call's observations: start, request,
 * response, close.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ListenerBenchmark {
  private static final String METHOD = "runtime.v1.RuntimeService/Version";
  private static final byte[] REQUEST = Testbed.REQUEST.toByteArray();
  private static final byte[] RESPONSE = VersionBackend.VERSION.toByteArray();

  /** The listener under test. */
  public enum Kind {
    /** The bare relay's: observes nothing. */
    NONE,
    /** The daemon's metrics: counters and two timers with client-side percentiles. */
    METRICS,
    /** The daemon's message dump with the default rules (Version is not dumped). */
    DUMP,
    /** What the daemon runs: metrics then dump, through the composite listener. */
    DAEMON,
    /** For comparison: the same counter and timers without client-side percentiles. */
    METRICS_NO_PERCENTILES
  }

  /** Which listener to measure. */
  @Param({"NONE", "METRICS", "DUMP", "DAEMON", "METRICS_NO_PERCENTILES"})
  public Kind kind = Kind.NONE;

  private RelayListener listener = RelayListener.NONE;
  private MessageDumper dumper = new MessageDumper(DumpConfig.defaults());

  /** Builds the listener in a fresh Prometheus registry. */
  @Setup(Level.Trial)
  public void start() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    listener =
        switch (kind) {
          case NONE -> RelayListener.NONE;
          case METRICS -> new RelayMetrics(registry);
          case DUMP -> dumper;
          case DAEMON -> new CompositeRelayListener(List.of(new RelayMetrics(registry), dumper));
          case METRICS_NO_PERCENTILES -> new PlainTimerMetrics(registry);
        };
  }

  /** Closes the dumper. */
  @TearDown(Level.Trial)
  public void stop() {
    dumper.close();
  }

  /** One call's observations on one thread. */
  @Benchmark
  @Threads(1)
  public CallTrace oneThread() {
    return observeCall();
  }

  /** One call's observations, eight threads at once (contention on shared meters). */
  @Benchmark
  @Threads(8)
  public CallTrace eightThreads() {
    return observeCall();
  }

  private CallTrace observeCall() {
    CallTrace trace = listener.callStarted(METHOD);
    trace.request(REQUEST);
    trace.response(RESPONSE);
    trace.closed(Status.OK, 120_000, 90_000);
    return trace;
  }
}
