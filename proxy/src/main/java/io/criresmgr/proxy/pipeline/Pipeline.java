package io.criresmgr.proxy.pipeline;

import io.criresmgr.cache.CacheSnapshot;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.grpc.unix.Shutdown;
import io.grpc.Status;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The serialized section: one thread that alone reads and writes the node cache, calls the policy
 * and runs controller hooks. Requests submit short steps and never wait here for the runtime (a
 * request that needs the runtime runs one step before the call and one after it).
 *
 * <p>After every step that changed the cache, the {@link CacheSaver} is told; it asks for a
 * snapshot, taken in a step of its own, when it is about to write, so a burst of steps costs one
 * copy of the cache per write, not one per step.
 *
 * <p>Why: docs/adr/0001-two-step-serialized-pipeline.md.
 */
public final class Pipeline implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
  private final ExecutorService executor =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "cri-pipeline");
            t.setDaemon(true);
            return t;
          });

  /** How long a step may run before health reports it (a step normally takes microseconds). */
  static final Duration STUCK = Duration.ofSeconds(30);

  private final Section section;
  private volatile long stepStarted;
  private final CacheSaver saver;
  private long savedChanges = -1;
  private final AtomicLong version = new AtomicLong();
  private long seenChanges;
  private long seenRefusals;
  private ActivePolicy seenPolicy;

  /** A pipeline working on {@code section}, persisting through {@code saver}. */
  public Pipeline(Section section, CacheSaver saver) {
    this.section = Objects.requireNonNull(section, "section");
    this.saver = Objects.requireNonNull(saver, "saver");
    this.seenChanges = section.cache().changes();
    this.seenPolicy = section.policy();
  }

  /**
   * Runs {@code step} in the serialized section; the future completes with its result or exception,
   * on the pipeline thread.
   */
  public <T> CompletableFuture<T> run(Function<Section, T> step) {
    CompletableFuture<T> result = new CompletableFuture<>();
    try {
      executor.execute(() -> runStep(step, result));
    } catch (RejectedExecutionException e) {
      result.completeExceptionally(
          new RequestException(Status.Code.UNAVAILABLE, "cri-resmgr is shutting down", e));
    }
    return result;
  }

  private <T> void runStep(Function<Section, T> step, CompletableFuture<T> result) {
    stepStarted = System.nanoTime();
    try {
      section.beginStep();
      T value = step.apply(section);
      // Before the result: a create's continuation sends the request whose mount must exist.
      section.endStep();
      track();
      result.complete(value);
    } catch (RuntimeException | Error e) {
      section.endStep();
      track();
      result.completeExceptionally(e);
    } finally {
      stepStarted = 0;
      persist();
    }
  }

  /**
   * Moves {@link #version()} when the step changed the cache, recorded a refusal or replaced the
   * policy; before the step's result is given, so whoever waits for a step sees the version it
   * left.
   */
  private void track() {
    long changes = section.cache().changes();
    long refusals = section.explanations().changes();
    if (changes != seenChanges || refusals != seenRefusals || section.policy() != seenPolicy) {
      seenChanges = changes;
      seenRefusals = refusals;
      seenPolicy = section.policy();
      version.incrementAndGet();
    }
  }

  /**
   * A number that moves after every step that changed the cache or replaced the active policy;
   * readable from any thread without a step (the live view polls it, docs/ui.md). Read in a step,
   * it is the version of the state that step sees.
   */
  public long version() {
    return version.get();
  }

  /**
   * For {@code /healthz}: a step that has run longer than {@link #STUCK} (every request that needs
   * the pipeline waits for it), or a cache file that cannot be written.
   */
  public Optional<String> problem() {
    long started = stepStarted;
    long running = started == 0 ? 0 : System.nanoTime() - started;
    if (running > STUCK.toNanos()) {
      return Optional.of("a pipeline step has run for " + running / 1_000_000_000L + " s");
    }
    return saver.problem();
  }

  private void persist() {
    NodeCache cache = section.cache();
    if (cache.changes() != savedChanges) {
      savedChanges = cache.changes();
      saver.offer(this::snapshot);
    }
  }

  /**
   * A snapshot of the cache as the steps queued so far left it, for the saver's thread: taken in a
   * step, or directly once the pipeline thread has ended (closing).
   */
  private CacheSnapshot snapshot() {
    CompletableFuture<CacheSnapshot> taken = run(s -> s.cache().snapshot());
    try {
      return taken.get(STUCK.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // A stuck step (health reports it) or one dropped at shutdown: the saver asks again later.
      throw new IllegalStateException("the pipeline took no snapshot in " + STUCK, e);
    } catch (ExecutionException e) {
      if (executor.isTerminated()) {
        return section.cache().snapshot(); // no thread changes the cache any more
      }
      throw new IllegalStateException("the pipeline is closing", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the pipeline", e);
    }
  }

  /** Finishes queued steps, then writes the last snapshot. */
  @Override
  public void close() {
    Shutdown.gracefully(
        Shutdown.of(executor),
        Duration.ofSeconds(10),
        Duration.ZERO,
        () ->
            LOG.warn(
                "a pipeline step did not end in 10 s at shutdown; the cache file keeps the state of"
                    + " its last save (start-up reconciles it with the runtime)"));
    saver.close();
  }
}
