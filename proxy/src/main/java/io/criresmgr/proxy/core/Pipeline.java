package io.criresmgr.proxy.core;

import io.criresmgr.cache.CacheSnapshot;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.grpc.unix.Shutdown;
import io.grpc.Context;
import io.grpc.Status;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The serialized section: short steps, one at a time and in the order they were submitted, alone
 * read and write the node cache, call the policy and run controller hooks. Requests submit steps
 * and never wait here for the runtime (a request that needs the runtime runs one step before the
 * call and one after it).
 *
 * <p>A step runs on the {@code cri-pipeline} thread, or, when no step is queued or running, at once
 * on the thread that submits it, which saves waking the pipeline thread. Never inline on the
 * transport threads the front end names (the daemon names every thread netty made, the relay's
 * event loops among them): relayed calls must never wait for a step, so there a step is always
 * queued. A lock held around every step orders both kinds.
 *
 * <p>After every step that changed the cache, the {@link CacheSaver} is told; it asks for a
 * snapshot, taken between two steps under their lock, when it is about to write, so a burst of
 * steps costs one copy of the cache per write, not one per step.
 *
 * <p>Why: docs/adr/0001-two-step-serialized-pipeline.md; why steps may run inline:
 * docs/adr/0010-steps-inline-and-answers-before-commit.md.
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

  /**
   * How long a step may run before health reports the pipeline stuck ({@code /livez}, docs/nri.md
   * "A hung daemon"). A step takes microseconds to milliseconds (a rebalance of 2,000 containers,
   * docs/benchmarks.md); a slow cgroup write under memory pressure takes seconds. 30 s is far above
   * both, above containerd's NRI request timeout (2 s by default) and equal to the longest the
   * front ends wait for a step ({@link RuntimeClient#OWN_DEADLINE_SECONDS}).
   */
  public static final Duration STUCK = Duration.ofSeconds(30);

  /** Steps submitted and not yet ended; a step runs inline only when it is the only one. */
  private final AtomicInteger pending = new AtomicInteger();

  /**
   * Held around every step, whichever thread runs it, and by the saver's thread while it takes a
   * snapshot ({@link #snapshot()}). Fair, so that a waiting saver gets the lock after the step that
   * runs, not after every step of a long burst: the pipeline thread re-takes the lock at once for
   * its next queued step. Steps themselves never contend for it: at most one is let in at a time
   * ({@link #pending}).
   */
  private final ReentrantLock stepping = new ReentrantLock(true);

  /** Set by {@link #close()}: no more steps inline. */
  private volatile boolean closed;

  private final Section section;
  private volatile long stepStarted;
  private final CacheSaver saver;
  private final Predicate<Thread> transportThreads;
  private final LongSupplier nanoClock;
  private long savedChanges = -1;
  private final AtomicLong version = new AtomicLong();
  private long seenChanges;
  private long seenRefusals;
  private ActivePolicy seenPolicy;

  /**
   * A pipeline working on {@code section}, persisting through {@code saver}; steps submitted from
   * {@code transportThreads} (threads that must never wait for a step) always queue.
   */
  public Pipeline(Section section, CacheSaver saver, Predicate<Thread> transportThreads) {
    this(section, saver, transportThreads, System::nanoTime);
  }

  /** As the other constructor, timing steps for {@link #stuck()} with {@code nanoClock} (tests). */
  public Pipeline(
      Section section,
      CacheSaver saver,
      Predicate<Thread> transportThreads,
      LongSupplier nanoClock) {
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.section = Objects.requireNonNull(section, "section");
    this.saver = Objects.requireNonNull(saver, "saver");
    this.transportThreads = Objects.requireNonNull(transportThreads, "transportThreads");
    this.seenChanges = section.cache().changes();
    this.seenPolicy = section.policy();
  }

  /**
   * Runs {@code step} in the serialized section, after every step submitted before it; the future
   * completes with its result or exception, on the thread that ran the step: this one if the
   * pipeline was idle and this is no transport thread ({@link #mayRunInline}), else the pipeline
   * thread.
   */
  public <T> CompletableFuture<T> run(Function<Section, T> step) {
    CompletableFuture<T> result = new CompletableFuture<>();
    if (!closed && mayRunInline(Thread.currentThread()) && pending.compareAndSet(0, 1)) {
      runInline(step, result);
      return result;
    }
    pending.incrementAndGet();
    try {
      executor.execute(() -> runLocked(step, result));
    } catch (RejectedExecutionException e) {
      pending.decrementAndGet();
      result.completeExceptionally(shuttingDown(e));
    }
    return result;
  }

  /**
   * Whether the current thread is running a step of this pipeline, on whichever thread (or, on the
   * cache saver's thread, taking its snapshot of the cache).
   */
  public boolean inStep() {
    return stepping.isHeldByCurrentThread();
  }

  /**
   * Whether a step may run on {@code thread} when the pipeline is idle: not on a transport thread
   * (in the daemon, the event loops of the relay, the runtime channels and the HTTP servers, which
   * must never wait for the section; also the HTTP workers, made by netty's thread factory).
   */
  boolean mayRunInline(Thread thread) {
    return !transportThreads.test(thread);
  }

  private <T> void runInline(Function<Section, T> step, CompletableFuture<T> result) {
    stepping.lock();
    // In the root gRPC context, as on the pipeline thread: the calls a step makes (updates of
    // other containers) must not inherit the deadline of the request whose thread runs it, nor
    // be cancelled when that request is answered.
    Context outer = Context.ROOT.attach();
    try {
      if (closed) {
        result.completeExceptionally(
            new RequestException(Status.Code.UNAVAILABLE, "cri-resmgr is shutting down"));
      } else {
        runStep(step, result);
      }
    } finally {
      Context.ROOT.detach(outer);
      stepping.unlock();
      pending.decrementAndGet();
    }
  }

  private <T> void runLocked(Function<Section, T> step, CompletableFuture<T> result) {
    stepping.lock();
    try {
      runStep(step, result);
    } finally {
      stepping.unlock();
      pending.decrementAndGet();
    }
  }

  private static RequestException shuttingDown(RejectedExecutionException cause) {
    return new RequestException(Status.Code.UNAVAILABLE, "cri-resmgr is shutting down", cause);
  }

  private <T> void runStep(Function<Section, T> step, CompletableFuture<T> result) {
    stepStarted = nanoClock.getAsLong() | 1; // never 0, which means "no step runs"
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
  // Identity on purpose: any replacement of the policy moves the version, even by an equal record.
  @SuppressWarnings("ReferenceEquality")
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
   * For {@code /healthz}: a stuck step ({@link #stuck()}), or a cache file that cannot be written
   * ({@link #saveProblem()}).
   */
  public Optional<String> problem() {
    return stuck().or(this::saveProblem);
  }

  /**
   * For {@code /livez}: a step that has run longer than {@link #STUCK}. Every request that needs
   * the pipeline waits behind it, and nothing in the daemon ends it: a restart does.
   */
  public Optional<String> stuck() {
    long started = stepStarted;
    long running = started == 0 ? 0 : nanoClock.getAsLong() - started;
    if (running > STUCK.toNanos()) {
      return Optional.of(
          "a pipeline step has run for "
              + running / 1_000_000_000L
              + " s (stuck after "
              + STUCK.toSeconds()
              + " s; every request waits behind it)");
    }
    return Optional.empty();
  }

  /** For {@code /healthz}: why the cache file cannot be written (the saver retries). */
  public Optional<String> saveProblem() {
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
   * A snapshot of the cache between two steps, for the saver's thread: taken under the lock every
   * step holds, not in a step of its own. A snapshot step submitted while a step ran was queued for
   * {@code cri-pipeline}, and the request's next step, submitted meanwhile, queued behind it
   * instead of running inline: two wake-ups on the request's path for a copy that takes tens of
   * microseconds (docs/benchmarks.md, "Issue 20: the saver's snapshot off the queue"). A step that
   * wants the lock while the copy is made waits that long on the lock instead. Which step the
   * snapshot follows does not matter: every step that changes the cache offers a newer one.
   */
  CacheSnapshot snapshot() {
    try {
      if (closed && !executor.isTerminated()) {
        // Closing while a queued step still runs (it did not end in the drain's time): waiting for
        // it would hold up the shutdown, and the cache file keeps its last save.
        if (!stepping.tryLock()) {
          throw new IllegalStateException("the pipeline is closing and a step still runs");
        }
      } else if (!stepping.tryLock(STUCK.toMillis(), TimeUnit.MILLISECONDS)) {
        // A stuck step (health reports it): the saver asks again later.
        throw new IllegalStateException("the pipeline took no snapshot in " + STUCK);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the pipeline", e);
    }
    try {
      return section.cache().snapshot();
    } finally {
      stepping.unlock();
    }
  }

  /** Finishes queued steps (new ones fail as UNAVAILABLE), then writes the last snapshot. */
  @Override
  public void close() {
    closed = true;
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
