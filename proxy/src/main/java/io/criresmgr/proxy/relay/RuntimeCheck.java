package io.criresmgr.proxy.relay;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Waits for the runtime socket, then checks that the runtime is one we have tested. */
public final class RuntimeCheck {
  private static final Logger LOG = LoggerFactory.getLogger(RuntimeCheck.class);
  private static final Duration POLL = Duration.ofMillis(250);
  private static final Duration REMIND = Duration.ofSeconds(30);
  // A node that boots many services at once (or a slow VM) may take seconds for the first call:
  // the channel's first connection and class loading count against the call's deadline. A slow
  // answer is retried like an unavailable runtime, within the overall limit.
  private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(60);

  private RuntimeCheck() {}

  /** Blocks until a process serves {@code socket}, logging once (then every 30 s) while waiting. */
  public static void awaitSocket(Path socket) throws InterruptedException {
    long waitedMillis = 0;
    while (!(Files.exists(socket) && UnixFiles.isServed(socket))) {
      if (waitedMillis % REMIND.toMillis() == 0) {
        LOG.info("waiting for the runtime socket {} to be served", socket);
      }
      Thread.sleep(POLL.toMillis());
      waitedMillis += POLL.toMillis();
    }
  }

  /**
   * Asks the runtime for its version (retrying while it is unavailable or does not answer within 10
   * s, up to 60 s in all) and rejects runtimes other than containerd and cri-o unless {@code
   * allowUntested}.
   */
  public static VersionResponse checkVersion(Channel runtime, boolean allowUntested) {
    return checkVersion(runtime, allowUntested, ATTEMPT_TIMEOUT, VERSION_TIMEOUT);
  }

  static VersionResponse checkVersion(
      Channel runtime, boolean allowUntested, Duration attempt, Duration total) {
    VersionResponse version = version(runtime, attempt, total);
    String name = version.getRuntimeName();
    if (!allowUntested && !(name.startsWith("containerd") || name.startsWith("cri-o"))) {
      throw new RelayException(
          "rejecting untested runtime " + name + ", use --allow-untested-runtimes to allow it");
    }
    LOG.info(
        "runtime is {} {} (CRI {})",
        name,
        version.getRuntimeVersion(),
        version.getRuntimeApiVersion());
    return version;
  }

  private static VersionResponse version(Channel runtime, Duration attempt, Duration total) {
    long deadline = System.nanoTime() + total.toNanos();
    while (true) {
      try {
        return RuntimeServiceGrpc.newBlockingStub(runtime)
            .withDeadlineAfter(attempt.toMillis(), TimeUnit.MILLISECONDS)
            .version(VersionRequest.newBuilder().setVersion("0.1.0").build());
      } catch (StatusRuntimeException e) {
        Status.Code code = e.getStatus().getCode();
        boolean retry = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
        if (!retry || System.nanoTime() > deadline) {
          throw new RelayException(
              "cannot query the runtime's version (tried for up to "
                  + total.toSeconds()
                  + " s): "
                  + e.getStatus(),
              e);
        }
        if (code == Status.Code.DEADLINE_EXCEEDED) {
          LOG.warn(
              "the runtime did not answer Version within {} ms; asking again", attempt.toMillis());
        }
        sleepQuietly(POLL);
      }
    }
  }

  private static void sleepQuietly(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayException("interrupted while waiting for the runtime", e);
    }
  }
}
