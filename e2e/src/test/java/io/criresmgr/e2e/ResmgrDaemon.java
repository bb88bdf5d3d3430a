package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code bin/cri-resmgr} under test, wherever it runs: a child process on this host ({@link
 * CriResmgrProcess}) or a process in the VM bed ({@link VmDaemon}).
 */
interface ResmgrDaemon extends AutoCloseable {
  /** The socket the daemon serves CRI on, on this host. */
  Path relaySocket();

  /** What the daemon has logged so far. */
  String log() throws IOException;

  /** Stops the daemon. */
  @Override
  void close() throws IOException;
}
