package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.relay.RelayException;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import io.netty.channel.MultithreadEventLoopGroup;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime connection made beside the start: it waits for the runtime, hands over what it made
 * to whoever takes it, and closes what nobody took.
 */
class RuntimeConnectionTest {
  @TempDir Path dir;

  private SimRuntimeServer startRuntime(Path socket) throws Exception {
    return new SimRuntimeServer(
            socket, new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
        .start();
  }

  private static void awaitMade(RuntimeConnection connection) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (connection.made().isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "the connection was never made");
      Thread.sleep(10); // polling interval
    }
  }

  @Test
  void waitsForTheRuntimeAndHandsOverWhatItMade() throws Exception {
    Path socket = dir.resolve("rt.sock");
    DaemonOptions options = TestDaemons.options(dir, socket, true);
    RuntimeConnection connection = RuntimeConnection.begin(options);
    assertTrue(connection.isFor(options));
    SimRuntimeServer sim = startRuntime(socket);
    try {
      RuntimeConnection.Parts parts = connection.take();
      try {
        assertEquals(SimOptions.defaults().runtimeName(), parts.version().await().getRuntimeName());
        connection.close();
        assertFalse(parts.channels().runtime().isShutdown(), "the taker owns the channels");
        assertFalse(parts.workers().isShuttingDown(), "the taker owns the event loops");
        // One loop for the relay server and the runtime's channels: a relayed call's messages
        // never change threads.
        assertEquals(1, ((MultithreadEventLoopGroup) parts.workers()).executorCount());
        assertThrows(IllegalStateException.class, connection::take);
      } finally {
        parts.version().close();
        parts.channels().close();
        EventLoops.shutdown(parts.workers());
      }
    } finally {
      sim.close();
    }
  }

  @Test
  void closeReleasesWhatNobodyTook() throws Exception {
    Path socket = dir.resolve("rt.sock");
    SimRuntimeServer sim = startRuntime(socket);
    try {
      RuntimeConnection connection =
          RuntimeConnection.begin(TestDaemons.options(dir, socket, true));
      awaitMade(connection);
      RuntimeConnection.Parts parts = connection.made().orElseThrow();
      connection.close();
      assertTrue(parts.channels().runtime().isShutdown());
      assertTrue(parts.workers().isTerminated());
    } finally {
      sim.close();
    }
  }

  @Test
  void closeStopsAWaitForARuntimeThatNeverComes() throws Exception {
    Path socket = dir.resolve("never.sock");
    RuntimeConnection connection = RuntimeConnection.begin(TestDaemons.options(dir, socket, true));
    connection.close();
    RelayException e = assertThrows(RelayException.class, connection::take);
    assertEquals(
        "the start was stopped while connecting to the runtime at " + socket, e.getMessage());
    assertFalse(
        Thread.getAllStackTraces().keySet().stream()
            .anyMatch(t -> List.of("runtime-connect", "runtime-wait").contains(t.getName())),
        "no thread of the connection is left");
    assertTrue(connection.made().isEmpty());
  }

  @Test
  void aSocketGivenAsDashIsRefusedWithoutConnecting() {
    RuntimeConnection connection =
        RuntimeConnection.begin(TestDaemons.options(dir, Path.of("-"), true));
    RelayException e = assertThrows(RelayException.class, connection::take);
    assertEquals(
        "a runtime and image socket are required: \"-\" (do not connect) is not supported",
        e.getMessage());
    connection.close();
  }

  @Test
  void isForTheSocketsItWasBegunFor() {
    DaemonOptions options = TestDaemons.options(dir, Path.of("-"), true);
    try (RuntimeConnection connection = RuntimeConnection.begin(options)) {
      assertTrue(connection.isFor(TestDaemons.options(dir.resolve("x"), Path.of("-"), true)));
      assertFalse(connection.isFor(TestDaemons.options(dir, dir.resolve("other.sock"), true)));
      assertFalse(connection.isFor(TestDaemons.options(dir, Path.of("-"), false)));
    }
  }
}
