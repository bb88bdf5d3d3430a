package io.criresmgr.proxy.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListenFdsTest {
  private static final Path RELAY = Path.of("/tmp/listen-fds-test/cri-resmgr.sock");

  @TempDir Path dir;

  @Test
  void theDescriptorBoundToTheRelaySocketIsServed() {
    Map<String, String> env = Map.of("LISTEN_PID", "42", "LISTEN_FDS", "2");
    OptionalInt fd =
        ListenFds.relayFd(env, 42, RELAY, n -> n == 4 ? RELAY.toString() : "/run/other.sock");
    assertEquals(OptionalInt.of(4), fd);
  }

  @Test
  void descriptorsForAnotherProcessOrNoneAreIgnored() {
    assertEquals(
        OptionalInt.empty(),
        ListenFds.relayFd(Map.of("LISTEN_PID", "41", "LISTEN_FDS", "1"), 42, RELAY, n -> null));
    assertEquals(OptionalInt.empty(), ListenFds.relayFd(Map.of(), 42, RELAY, n -> null));
  }

  @Test
  void socketsBoundElsewhereAreRefusedWithWhatTheyAre() {
    Map<String, String> env = Map.of("LISTEN_PID", "42", "LISTEN_FDS", "2");
    RelayException e =
        assertThrows(
            RelayException.class,
            () -> ListenFds.relayFd(env, 42, RELAY, n -> n == 3 ? "/run/other.sock" : null));
    assertEquals(
        "systemd passed 2 socket(s) (LISTEN_FDS=2) but none is bound to the relay socket "
            + RELAY
            + ": fd 3 is bound to /run/other.sock, fd 4 is not a bound Unix socket; make"
            + " ListenStream= of cri-resource-manager.socket equal --relay-socket",
        e.getMessage());
  }

  @Test
  void aBadCountIsRefused() {
    RelayException e =
        assertThrows(
            RelayException.class,
            () ->
                ListenFds.relayFd(
                    Map.of("LISTEN_PID", "42", "LISTEN_FDS", "x"), 42, RELAY, n -> null));
    assertEquals(
        "LISTEN_FDS=x is not a count of sockets (systemd sets 1 or more with LISTEN_PID)",
        e.getMessage());
  }

  @Test
  void aLinkedDirectoryMatchesItsTarget() throws Exception {
    Path run = Files.createDirectories(dir.resolve("run/cri-resmgr"));
    Path varRun = Files.createSymbolicLink(dir.resolve("var-run"), dir.resolve("run"));
    Path asFlagged = varRun.resolve("cri-resmgr/cri-resmgr.sock");
    Path asBound = run.resolve("cri-resmgr.sock");
    OptionalInt fd =
        ListenFds.relayFd(
            Map.of("LISTEN_PID", "7", "LISTEN_FDS", "1"), 7, asFlagged, n -> asBound.toString());
    assertEquals(OptionalInt.of(3), fd);
  }
}
