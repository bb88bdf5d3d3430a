package io.criresmgr.sim;

import com.google.protobuf.Message;
import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Test hooks of a {@link SimRuntime}: latency, injected failures and recorded requests, applied to
 * every call that goes through {@link SimRuntime#services()}. Methods are named by their bare CRI
 * name, e.g. {@code "CreateContainer"} or {@code "PullImage"}; an unknown name is rejected.
 * Thread-safe.
 */
public final class SimHooks implements AutoCloseable {
  private static final Set<String> METHODS = knownMethods();

  private Duration defaultLatency = Duration.ZERO;
  private final Map<String, Duration> latency = new HashMap<>();
  private final Map<String, ArrayDeque<Failure>> failures = new HashMap<>();
  private final Map<String, List<Message>> requests = new HashMap<>();
  private final Map<String, List<Consumer<Message>>> observers = new HashMap<>();
  private final Map<String, Integer> calls = new HashMap<>();
  private final Map<String, Integer> cancellations = new HashMap<>();
  private @Nullable ScheduledExecutorService scheduler;

  /** A status (and trailers) to fail a call with. */
  record Failure(Status status, Metadata trailers) {
    Failure {
      Objects.requireNonNull(status, "status");
      if (status.isOk()) {
        throw new IllegalArgumentException("status: must not be OK");
      }
      trailers = copy(trailers);
    }

    /** A fresh copy of the trailers: a Metadata object must not be sent twice. */
    Metadata trailersCopy() {
      return copy(trailers);
    }

    private static Metadata copy(Metadata source) {
      Metadata copy = new Metadata();
      copy.merge(source);
      return copy;
    }
  }

  /**
   * Delays every call by {@code delay} before it is handled (without blocking a thread). A call
   * cancelled during the delay, e.g. because its deadline expired, is not handled at all.
   */
  public synchronized void setLatency(Duration delay) {
    defaultLatency = checkLatency(delay);
  }

  /** Delays calls of one method, overriding {@link #setLatency(Duration)} for it. */
  public synchronized void setLatency(String method, Duration delay) {
    latency.put(checkMethod(method), checkLatency(delay));
  }

  /** Fails the next call of {@code method} with {@code status}; calls queue up failures. */
  public void failNext(String method, Status status) {
    failNext(method, status, new Metadata());
  }

  /** Fails the next call of {@code method} with {@code status} and these trailers. */
  public synchronized void failNext(String method, Status status, Metadata trailers) {
    Failure failure = new Failure(status, trailers);
    failures.computeIfAbsent(checkMethod(method), m -> new ArrayDeque<>()).add(failure);
  }

  /** Clears latencies, pending failures, recorded requests and counters. */
  public synchronized void reset() {
    defaultLatency = Duration.ZERO;
    latency.clear();
    failures.clear();
    requests.clear();
    observers.clear();
    calls.clear();
    cancellations.clear();
  }

  /**
   * Calls {@code observer} with every request {@code method} receives from now on, on the
   * transport's thread, before the call is delayed, failed or handled: a test sees the host as the
   * runtime found it when the request arrived.
   */
  public synchronized void onRequest(String method, Consumer<Message> observer) {
    observers
        .computeIfAbsent(checkMethod(method), m -> new ArrayList<>())
        .add(Objects.requireNonNull(observer, "observer"));
  }

  /** The requests received by {@code method}, oldest first (also those failed on purpose). */
  public synchronized List<Message> requests(String method) {
    return List.copyOf(requests.getOrDefault(checkMethod(method), List.of()));
  }

  /**
   * The requests received by {@code method}, oldest first, as {@code type}.
   *
   * @throws ClassCastException if {@code type} is not the method's request type
   */
  public synchronized <T extends Message> List<T> requests(String method, Class<T> type) {
    return requests.getOrDefault(checkMethod(method), List.of()).stream().map(type::cast).toList();
  }

  /** The last request received by {@code method}, if any. */
  public synchronized <T extends Message> Optional<T> lastRequest(String method, Class<T> type) {
    List<Message> received = requests.getOrDefault(checkMethod(method), List.of());
    return received.isEmpty()
        ? Optional.empty()
        : Optional.of(type.cast(received.get(received.size() - 1)));
  }

  /** How many calls of {@code method} arrived. */
  public synchronized int callCount(String method) {
    return calls.getOrDefault(checkMethod(method), 0);
  }

  /**
   * How many calls of {@code method} were cancelled by the client or expired before they were
   * handled. An expired delayed call may be counted only when its delay ends.
   */
  public synchronized int cancelledCount(String method) {
    return cancellations.getOrDefault(checkMethod(method), 0);
  }

  /** Stops the latency timer thread. */
  @Override
  public synchronized void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }

  synchronized void recordCall(String method) {
    calls.merge(method, 1, Integer::sum);
  }

  void recordRequest(String method, Object request) {
    if (!(request instanceof Message message)) {
      return;
    }
    List<Consumer<Message>> observing;
    synchronized (this) {
      requests.computeIfAbsent(method, m -> new ArrayList<>()).add(message);
      observing = List.copyOf(observers.getOrDefault(method, List.of()));
    }
    observing.forEach(o -> o.accept(message));
  }

  synchronized void recordCancel(String method) {
    cancellations.merge(method, 1, Integer::sum);
  }

  synchronized Optional<Failure> takeFailure(String method) {
    ArrayDeque<Failure> queue = failures.get(method);
    return queue == null ? Optional.empty() : Optional.ofNullable(queue.poll());
  }

  synchronized Duration latencyFor(String method) {
    return latency.getOrDefault(method, defaultLatency);
  }

  /** The timer for delayed calls, created on first use (daemon thread). */
  synchronized ScheduledExecutorService scheduler() {
    ScheduledExecutorService timer = scheduler;
    if (timer == null) {
      timer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "sim-runtime-latency");
                t.setDaemon(true);
                return t;
              });
      scheduler = timer;
    }
    return timer;
  }

  private static String checkMethod(String method) {
    if (!METHODS.contains(method)) {
      throw new IllegalArgumentException(
          "method: unknown CRI method \"" + method + "\", expected one of " + METHODS);
    }
    return method;
  }

  private static Duration checkLatency(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("latency: must not be negative, got " + delay);
    }
    return delay;
  }

  private static Set<String> knownMethods() {
    return Stream.of(
            RuntimeServiceGrpc.getServiceDescriptor(), ImageServiceGrpc.getServiceDescriptor())
        .map(ServiceDescriptor::getMethods)
        .flatMap(Collection::stream)
        .map(MethodDescriptor::getBareMethodName)
        .filter(Objects::nonNull)
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
