package io.criresmgr.proxy.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The version check on its own thread: its answer or failure reaches the start, close stops it. */
class VersionCheckTest {
  @Test
  void aTestedRuntimeIsAccepted() throws Exception {
    try (VersionRuntime runtime = VersionRuntime.start("containerd", 0, Status.OK);
        VersionCheck check = VersionCheck.start(runtime.channel(), false)) {
      assertEquals("1.7.24", check.await().getRuntimeVersion());
    }
  }

  @Test
  void anUntestedRuntimeFailsTheAwaitWithTheCheckersMessage() throws Exception {
    try (VersionRuntime runtime = VersionRuntime.start("sim-runtime", 0, Status.OK);
        VersionCheck check = VersionCheck.start(runtime.channel(), false)) {
      RelayException e = assertThrows(RelayException.class, check::await);
      assertEquals(
          "rejecting untested runtime sim-runtime, use --allow-untested-runtimes to allow it",
          e.getMessage());
    }
  }

  @Test
  void closeStopsACheckStillWaitingForTheRuntime() throws Exception {
    try (VersionRuntime runtime =
        VersionRuntime.start("containerd", Integer.MAX_VALUE, Status.OK)) {
      VersionCheck check = VersionCheck.start(runtime.channel(), false);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (runtime.calls() == 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertEquals(1, runtime.calls(), "the check should be waiting for its first answer");
      check.close();
      assertFalse(check.running());
      RelayException e = assertThrows(RelayException.class, check::await);
      assertTrue(e.getMessage().contains("CANCELLED"), e.getMessage());
    }
  }
}
