package io.criresmgr.proxy.relay;

import io.criresmgr.grpc.unix.EventLoops;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * The listening sockets systemd passes to a socket-activated service ({@code sd_listen_fds(3)}):
 * {@code LISTEN_FDS} descriptors from 3 on, meant for the process {@code LISTEN_PID}. The daemon
 * serves the one bound to its relay socket, so that connections made while it restarts wait in that
 * socket's backlog instead of failing (docs/packages.md; why:
 * docs/adr/0007-relay-socket-ownership-and-socket-activation.md).
 */
public final class ListenFds {
  /** The first descriptor systemd passes ({@code SD_LISTEN_FDS_START}). */
  static final int FIRST_FD = 3;

  private ListenFds() {}

  /** The descriptor of this process's environment that serves {@code relaySocket}, if any. */
  public static OptionalInt relayFd(Path relaySocket) {
    return relayFd(
        System.getenv(), ProcessHandle.current().pid(), relaySocket, ListenFds::boundPath);
  }

  /**
   * The descriptor among those passed in {@code env} to process {@code pid} that {@code boundPath}
   * says is bound to {@code relaySocket}; empty if none were passed to {@code pid}.
   *
   * @throws RelayException if descriptors were passed but none is bound to {@code relaySocket}, or
   *     {@code LISTEN_FDS} is not a count
   */
  static OptionalInt relayFd(
      Map<String, String> env,
      long pid,
      Path relaySocket,
      IntFunction<@Nullable String> boundPath) {
    String listenPid = env.get("LISTEN_PID");
    if (listenPid == null || !listenPid.trim().equals(Long.toString(pid))) {
      return OptionalInt.empty(); // meant for another process (or none): sd_listen_fds ignores it
    }
    int count = count(env.get("LISTEN_FDS"));
    Path wanted = canonical(relaySocket.toString());
    List<String> seen = new ArrayList<>();
    for (int fd = FIRST_FD; fd < FIRST_FD + count; fd++) {
      String path = boundPath.apply(fd);
      if (path != null && canonical(path).equals(wanted)) {
        return OptionalInt.of(fd);
      }
      seen.add(
          "fd " + fd + " is " + (path == null ? "not a bound Unix socket" : "bound to " + path));
    }
    throw new RelayException(
        "systemd passed "
            + count
            + " socket(s) (LISTEN_FDS="
            + count
            + ") but none is bound to the relay socket "
            + relaySocket
            + ": "
            + String.join(", ", seen)
            + "; make ListenStream= of cri-resource-manager.socket equal --relay-socket");
  }

  private static int count(@Nullable String value) {
    try {
      int count = Integer.parseInt(value == null ? "" : value.trim());
      if (count > 0) {
        return count;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new RelayException(
        "LISTEN_FDS="
            + value
            + " is not a count of sockets (systemd sets 1 or more with LISTEN_PID)");
  }

  /**
   * The path with its directory's links resolved: systemd binds {@code /var/run/x} as {@code
   * /run/x}, since {@code /var/run} is a link to {@code /run}.
   */
  static Path canonical(String path) {
    Path p = Path.of(path).toAbsolutePath().normalize();
    Path dir = p.getParent();
    try {
      return dir == null ? p : dir.toRealPath().resolve(p.getFileName());
    } catch (IOException e) {
      return p;
    }
  }

  /** The path a Unix socket descriptor is bound to; null if it is not one. */
  private static @Nullable String boundPath(int fd) {
    EventLoops.requireEpoll(); // Socket's methods are native
    try {
      DomainSocketAddress address = new Socket(fd).localDomainSocketAddress();
      return address == null ? null : address.path();
    } catch (RuntimeException e) {
      return null;
    }
  }
}
