package io.criresmgr.proxy.relay;

import io.criresmgr.api.runtime.v1.VersionResponse;
import io.grpc.Channel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * {@link RuntimeCheck#checkVersion} on a thread of its own, so the start goes on with the work that
 * needs no runtime (the policy, the metrics server) while the first connection is set up: that
 * connection is the longest single wait of the start (docs/benchmarks.md, "Start-up").
 */
public final class VersionCheck implements AutoCloseable {
  private static final long JOIN_MILLIS = 5_000;

  private final CompletableFuture<VersionResponse> result = new CompletableFuture<>();
  private final Thread thread;

  private VersionCheck(Channel runtime, boolean allowUntested) {
    thread =
        new Thread(
            () -> {
              try {
                result.complete(RuntimeCheck.checkVersion(runtime, allowUntested));
              } catch (RuntimeException e) {
                result.completeExceptionally(e);
              }
            },
            "runtime-version");
    thread.setDaemon(true);
  }

  /** Starts asking {@code runtime} for its version (see {@link RuntimeCheck#checkVersion}). */
  public static VersionCheck start(Channel runtime, boolean allowUntested) {
    VersionCheck check = new VersionCheck(runtime, allowUntested);
    check.thread.start();
    return check;
  }

  /**
   * Waits for the answer.
   *
   * @throws RuntimeException what {@link RuntimeCheck#checkVersion} threw (an untested runtime, no
   *     answer within its limit)
   */
  public VersionResponse await() throws InterruptedException {
    try {
      return result.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new RelayException("cannot query the runtime's version: " + e.getCause(), e);
    }
  }

  /** Stops a check still waiting for the runtime (the start failed elsewhere) and waits for it. */
  @Override
  public void close() {
    thread.interrupt();
    try {
      thread.join(JOIN_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether the checking thread is still running (for tests). */
  boolean running() {
    return thread.isAlive();
  }
}
