package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.proxy.relay.RawClient;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients that call {@code Version} through a socket in a loop, each on its own connection, the way
 * kubelet polls its runtime; every failed call is kept.
 */
final class CallLoop implements AutoCloseable {
  private final Path socket;
  private final List<Thread> threads = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private final AtomicLong calls = new AtomicLong();
  private volatile boolean running = true;

  private CallLoop(Path socket) {
    this.socket = socket;
  }

  /** Starts {@code clients} looping clients on {@code socket}. */
  static CallLoop start(Path socket, int clients) {
    CallLoop loop = new CallLoop(socket);
    for (int i = 0; i < clients; i++) {
      Thread thread = new Thread(loop::run, "call-loop-" + i);
      thread.setDaemon(true);
      loop.threads.add(thread);
      thread.start();
    }
    return loop;
  }

  private void run() {
    try (RawClient client = new RawClient(socket)) {
      while (running) {
        call(client);
      }
    }
  }

  private void call(RawClient client) {
    try {
      RuntimeServiceGrpc.newBlockingStub(client.channel())
          .withDeadlineAfter(60, TimeUnit.SECONDS)
          .version(VersionRequest.newBuilder().setVersion("v1").build());
      calls.incrementAndGet();
    } catch (StatusRuntimeException e) {
      synchronized (failures) {
        failures.add(e.getStatus().toString());
      }
    }
  }

  /** Waits until {@code n} more calls have succeeded (at most 60 s). */
  void awaitCalls(int n) throws InterruptedException {
    long target = calls.get() + n;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (calls.get() < target) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "only " + calls.get() + " calls succeeded; failures: " + failures());
      }
      Thread.sleep(5);
    }
  }

  /** The failed calls so far. */
  List<String> failures() {
    synchronized (failures) {
      return List.copyOf(failures);
    }
  }

  @Override
  public void close() {
    running = false;
    try {
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(70));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
