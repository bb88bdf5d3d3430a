package io.criresmgr.proxy.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.VersionResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The version check at start: a runtime that is slow to answer its first calls (a busy node, a TCG
 * virtual machine) is asked again, as one that is not up yet; other errors end the start.
 */
class RuntimeCheckTest {
  private static final Duration ATTEMPT = Duration.ofMillis(200);

  private @Nullable VersionRuntime runtime;

  private ManagedChannel channel() {
    if (runtime == null) {
      throw new IllegalStateException("no runtime");
    }
    return runtime.channel();
  }

  private int calls() {
    return runtime == null ? 0 : runtime.calls();
  }

  private void runtime(int silent, Status failure) throws Exception {
    runtime = VersionRuntime.start("containerd", silent, failure);
  }

  @AfterEach
  void stop() {
    if (runtime != null) {
      runtime.close();
    }
  }

  @Test
  void aRuntimeThatMissesTheFirstDeadlinesIsAskedAgain() throws Exception {
    runtime(2, Status.OK);
    VersionResponse v =
        RuntimeCheck.checkVersion(channel(), false, ATTEMPT, Duration.ofSeconds(30));
    assertEquals("1.7.24", v.getRuntimeVersion());
    assertEquals(3, calls());
  }

  @Test
  void aRuntimeThatNeverAnswersEndsTheStartWithTheLimitInTheMessage() throws Exception {
    runtime(Integer.MAX_VALUE, Status.OK);
    RelayException e =
        assertThrows(
            RelayException.class,
            () -> RuntimeCheck.checkVersion(channel(), false, ATTEMPT, Duration.ofSeconds(1)));
    assertTrue(
        e.getMessage().startsWith("cannot query the runtime's version (tried for up to 1 s): "),
        e.getMessage());
    assertTrue(e.getMessage().contains("DEADLINE_EXCEEDED"), e.getMessage());
    assertTrue(calls() >= 2, () -> "asked " + calls() + " times");
  }

  @Test
  void otherErrorsAreNotRetried() throws Exception {
    runtime(0, Status.UNIMPLEMENTED.withDescription("no CRI v1 here"));
    RelayException e =
        assertThrows(
            RelayException.class,
            () -> RuntimeCheck.checkVersion(channel(), false, ATTEMPT, Duration.ofSeconds(30)));
    assertTrue(e.getMessage().contains("UNIMPLEMENTED"), e.getMessage());
    assertEquals(1, calls());
  }
}
