package io.criresmgr.proxy.daemon;

import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.relay.RelayException;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.criresmgr.proxy.relay.RuntimeCheck;
import io.criresmgr.proxy.relay.VersionCheck;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.jspecify.annotations.Nullable;

/**
 * The relay's event loops, the runtime's channels and the runtime's version check, made on a thread
 * of their own ({@code runtime-connect}; the wait for the runtime's socket on another, {@code
 * runtime-wait}, beside netty's set-up): waiting for the runtime's socket, loading netty's native
 * library and the runtime's first answer overlap the rest of the start. The daemon's usual command
 * line begins it as soon as its flags are read, before the configuration is loaded
 * (docs/benchmarks.md, "Start-up"); {@link Daemon} begins one itself otherwise. Whoever {@link
 * #take takes} the parts owns them; {@link #close} stops and closes a connection nobody took.
 */
public final class RuntimeConnection implements AutoCloseable {
  private static final long JOIN_MILLIS = 5_000;

  /** What the connection made; the taker closes them. */
  record Parts(EventLoopGroup workers, RuntimeChannels channels, VersionCheck version) {}

  private final DaemonOptions options;
  private final CompletableFuture<Parts> parts = new CompletableFuture<>();
  private final @Nullable Thread thread;
  private boolean taken; // guarded by this

  private RuntimeConnection(DaemonOptions options, @Nullable RelayException refused) {
    this.options = options;
    if (refused == null) {
      thread = new Thread(this::connect, "runtime-connect");
      thread.setDaemon(true);
    } else {
      thread = null;
      parts.completeExceptionally(refused);
    }
  }

  /**
   * Begins connecting to the runtime and image sockets of {@code options}. Never throws: a failure
   * (such as a socket the daemon cannot connect to, {@link #requireConnectable}) is thrown by
   * {@link #take}.
   */
  public static RuntimeConnection begin(DaemonOptions options) {
    RelayException refused = null;
    try {
      requireConnectable(options);
    } catch (RelayException e) {
      refused = e;
    }
    RuntimeConnection connection = new RuntimeConnection(options, refused);
    if (connection.thread != null) {
      connection.thread.start();
    }
    return connection;
  }

  /**
   * Rejects runtime and image sockets given as {@code "-"}: cri-resmgr's "do not connect" makes no
   * sense for a relay that forwards every call.
   */
  static void requireConnectable(DaemonOptions options) {
    for (Path socket : List.of(options.runtimeSocket(), options.imageSocket())) {
      if (socket.toString().equals("-")) {
        throw new RelayException(
            "a runtime and image socket are required: \"-\" (do not connect) is not supported");
      }
    }
  }

  /** Whether this connection was begun for the sockets of {@code other}. */
  public boolean isFor(DaemonOptions other) {
    return options.runtimeSocket().equals(other.runtimeSocket())
        && options.imageSocket().equals(other.imageSocket())
        && options.allowUntestedRuntimes() == other.allowUntestedRuntimes();
  }

  /**
   * Waits for the parts (as long as the runtime's socket is not served) and hands them over.
   *
   * @throws RuntimeException what making them threw, such as a {@link RelayException}
   */
  Parts take() throws InterruptedException {
    Parts made;
    try {
      made = parts.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      if (e.getCause() instanceof InterruptedException) {
        throw new RelayException(
            "the start was stopped while connecting to the runtime at " + options.runtimeSocket(),
            e);
      }
      throw new RelayException("cannot connect to the runtime: " + e.getCause(), e);
    }
    synchronized (this) {
      if (taken) {
        throw new IllegalStateException("the runtime connection was taken already");
      }
      taken = true;
    }
    return made;
  }

  /** What the connection has made so far, still its own until taken (for tests). */
  Optional<Parts> made() {
    return parts.isDone() && !parts.isCompletedExceptionally()
        ? Optional.of(parts.join())
        : Optional.empty();
  }

  private void connect() {
    Deque<AutoCloseable> made = new ArrayDeque<>();
    Path runtime = options.runtimeSocket();
    Path image = options.imageSocket();
    // The wait for the runtime (whose first probe looks for the JDK's selector providers in every
    // jar) and netty's set-up do not depend on each other: they run side by side.
    FutureTask<@Nullable Void> served =
        new FutureTask<>(
            () -> {
              RuntimeCheck.awaitSocket(runtime);
              if (!image.equals(runtime)) {
                RuntimeCheck.awaitSocket(image);
              }
              return null;
            });
    Thread waiter = new Thread(served, "runtime-wait");
    waiter.setDaemon(true);
    waiter.start();
    try {
      // One loop for the relay server (which also accepts on it) and the runtime's channels: a
      // relayed call's messages never change threads. With two, the order of connections placed
      // kubelet's connection and the runtime channel, and when they landed apart every message
      // crossed threads (docs/benchmarks.md, "Issue 20: idle wake-ups").
      EventLoopGroup workers = EventLoops.epoll("relay-io", 1);
      made.push(() -> EventLoops.shutdown(workers));
      RuntimeChannels channels = RuntimeChannels.open(runtime, image, workers);
      made.push(channels);
      awaitServed(served);
      // Answered while the policy is built; awaited before anything touches the node.
      VersionCheck version =
          VersionCheck.start(channels.runtime(), options.allowUntestedRuntimes());
      parts.complete(new Parts(workers, channels, version));
    } catch (InterruptedException | RuntimeException | Error e) {
      stop(waiter);
      closeAll(made);
      parts.completeExceptionally(e);
    }
  }

  private static void awaitServed(FutureTask<@Nullable Void> served) throws InterruptedException {
    try {
      served.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof InterruptedException interrupted) {
        throw interrupted;
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new RelayException("cannot wait for the runtime's socket: " + cause, e);
    }
  }

  /**
   * Stops a connection nobody took: interrupts its wait for the runtime, waits for its thread and
   * closes what it made, or will have made if its thread outlives the wait. Does nothing once
   * taken.
   */
  @Override
  public void close() {
    if (thread != null) {
      stop(thread);
    }
    synchronized (this) {
      if (taken) {
        return;
      }
      taken = true;
    }
    var unused = parts.thenAccept(RuntimeConnection::closeParts); // nothing to close on failure
  }

  private static void closeParts(Parts made) {
    Deque<AutoCloseable> all = new ArrayDeque<>();
    all.push(() -> EventLoops.shutdown(made.workers()));
    all.push(made.channels());
    all.push(made.version());
    closeAll(all);
  }

  private static void stop(Thread thread) {
    thread.interrupt();
    try {
      thread.join(JOIN_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @SuppressWarnings("EmptyCatch") // nothing to report: the start that needed them has ended
  private static void closeAll(Deque<AutoCloseable> resources) {
    while (!resources.isEmpty()) {
      try {
        resources.pop().close();
      } catch (Exception e) {
      }
    }
  }
}
