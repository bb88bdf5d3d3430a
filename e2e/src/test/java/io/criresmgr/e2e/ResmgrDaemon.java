package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code bin/cri-resmgr} under test, wherever it runs: a child process on this host ({@link
 * CriResmgrProcess}) or a process in the VM bed ({@link VmDaemon}).
 */
interface ResmgrDaemon extends AutoCloseable {
  /**
   * Where kubelet's CRI calls go, on this host: the socket the daemon serves CRI on in proxy mode;
   * in NRI mode ({@code cri-resmgr --nri}, docs/nri.md) the runtime's own CRI socket, as the daemon
   * serves no CRI there and sees the calls as the runtime's NRI events.
   */
  Path relaySocket();

  /** The daemon's state directory ({@code --relay-dir}), on the node. */
  Path relayDir();

  /** What the daemon has logged so far. */
  String log() throws IOException;

  /** The lines of {@link #log()} at level WARN or ERROR, one per line. */
  default String warningsAndErrors() throws IOException {
    return String.join(
        "\n", log().lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).toList());
  }

  /** Stops the daemon. */
  @Override
  void close() throws IOException;
}
