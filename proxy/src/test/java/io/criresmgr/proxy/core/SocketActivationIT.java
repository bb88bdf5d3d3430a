package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.ListenableFuture;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.SimRuntimeServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Socket activation: the relay socket is held by a socket-activating parent (as systemd's {@code
 * cri-resource-manager.socket} holds it) and passed to each daemon as fd 3 with {@code LISTEN_FDS}
 * and {@code LISTEN_PID}. Clients calling in a loop across two daemon restarts see no failed call,
 * and a call made while no daemon runs waits in the socket's backlog and is answered by the next.
 */
class SocketActivationIT {
  private static final Duration START = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  @SuppressWarnings("try") // sim serves the daemons; the test talks to them
  void callsAcrossRestartsNeverFail() throws Exception {
    CrashDaemon.Layout layout = CrashIT.layout(dir);
    try (SimRuntimeServer sim =
        new SimRuntimeServer(layout.runtimeSocket(), CrashIT.sim()).start()) {
      CrashJvm jvm = CrashJvm.withSharedArchive(layout, dir);
      Files.createDirectories(layout.relaySocket().getParent());
      try (Activator activator = Activator.start(layout, jvm, dir)) {
        long pid = activator.startDaemon(layout);
        callAcrossRestarts(layout, activator, pid);
        assertTrue(
            activator.output().contains("serving the relay socket systemd passed (fd 3)"),
            activator.output());
      }
    }
  }

  private static void callAcrossRestarts(
      CrashDaemon.Layout layout, Activator activator, long firstPid) throws Exception {
    long pid = firstPid;
    try (CallLoop loop = CallLoop.start(layout.relaySocket(), 2)) {
      for (int restart = 0; restart < 2; restart++) {
        loop.awaitCalls(20);
        assertEquals(0, activator.stop(pid), "SIGTERM ends the daemon with status 0");
        try (RawClient fresh = new RawClient(layout.relaySocket())) {
          ListenableFuture<VersionResponse> waiting = version(fresh);
          assertFalse(waiting.isDone(), "answered with no daemon running: " + waiting);
          pid = activator.startDaemon(layout);
          assertEquals("0.1.0", waiting.get(30, TimeUnit.SECONDS).getVersion());
        }
      }
      loop.awaitCalls(20);
      assertEquals(List.of(), loop.failures(), "calls failed across restarts");
    }
  }

  private static ListenableFuture<VersionResponse> version(RawClient client) {
    return RuntimeServiceGrpc.newFutureStub(client.channel())
        .withDeadlineAfter(60, TimeUnit.SECONDS)
        .version(VersionRequest.newBuilder().setVersion("v1").build());
  }

  /** The socket-activating parent: {@code socket-activate.py} from the test resources. */
  private static final class Activator implements AutoCloseable {
    private final Process process;
    private final BufferedReader replies;
    private final Writer commands;
    private final Path log;

    private Activator(Process process, Path log) {
      this.process = process;
      this.log = log;
      this.replies =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    static Activator start(CrashDaemon.Layout layout, CrashJvm jvm, Path dir) throws IOException {
      Path script = dir.resolve("socket-activate.py");
      try (InputStream in =
          Objects.requireNonNull(
              SocketActivationIT.class.getResourceAsStream("socket-activate.py"))) {
        Files.copy(in, script);
      }
      Path log = dir.resolve("daemons.log");
      List<String> command =
          new ArrayList<>(
              List.of(
                  "python3", script.toString(), layout.relaySocket().toString(), log.toString()));
      command.addAll(CrashDaemon.command(layout, jvm));
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.redirectError(dir.resolve("activator.err").toFile());
      return new Activator(builder.start(), log);
    }

    /** Starts a daemon on the held socket and waits until it serves; returns its pid. */
    long startDaemon(CrashDaemon.Layout layout) throws IOException, InterruptedException {
      String reply = ask("start");
      assertTrue(reply.startsWith("pid "), reply);
      long pid = Long.parseLong(reply.substring(4));
      awaitPidFile(layout.pidFile(), pid);
      return pid;
    }

    /** Stops daemon {@code pid} with SIGTERM, as systemd does; returns its exit status. */
    int stop(long pid) throws IOException {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
      String reply = ask("wait");
      assertTrue(reply.startsWith("exit "), reply);
      return Integer.parseInt(reply.substring(5));
    }

    private String ask(String command) throws IOException {
      commands.write(command + "\n");
      commands.flush();
      String reply = replies.readLine();
      if (reply == null) {
        throw new AssertionError("the activator ended; daemons' output:\n" + output());
      }
      return reply;
    }

    private void awaitPidFile(Path pidFile, long pid) throws InterruptedException {
      long deadline = System.nanoTime() + START.toNanos();
      while (!pidFileHolds(pidFile, pid)) {
        if (System.nanoTime() > deadline || !ProcessHandle.of(pid).isPresent()) {
          throw new AssertionError("daemon " + pid + " did not serve; output:\n" + output());
        }
        Thread.sleep(10);
      }
    }

    private static boolean pidFileHolds(Path pidFile, long pid) {
      try {
        return Files.readString(pidFile, StandardCharsets.US_ASCII).trim().equals(pid + "");
      } catch (IOException e) {
        return false;
      }
    }

    String output() {
      try {
        return Files.readString(log, StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "(cannot read " + log + ": " + e + ")";
      }
    }

    @Override
    public void close() throws IOException {
      try {
        commands.close(); // the activator kills a running daemon and exits
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
