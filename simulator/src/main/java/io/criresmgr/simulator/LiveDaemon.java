package io.criresmgr.simulator;

import java.net.URI;
import java.util.Optional;

/** The daemon of a scenario run, as a listener sees it at the end. */
public interface LiveDaemon {
  /** The daemon's {@code /ui/node.json} (docs/ui.md); empty if it is not running. */
  Optional<String> nodeModel();

  /** The root of the daemon's HTTP endpoint ({@code http://127.0.0.1:PORT}); empty if none. */
  Optional<URI> endpoint();
}
