package io.criresmgr.agent;

import io.criresmgr.agent.config.ConfigMapNames;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What the command line asks the agent to do.
 *
 * @param names the ConfigMaps and Node label to watch, and the node's name
 * @param kubeconfig kubeconfig file; empty: the in-cluster configuration
 * @param agentSocket where the agent serves its Agent API
 * @param configSocket the daemon's Config socket the configuration is pushed to
 */
record AgentOptions(
    ConfigMapNames names, Optional<Path> kubeconfig, Path agentSocket, Path configSocket) {
  AgentOptions {
    Objects.requireNonNull(names, "names");
    Objects.requireNonNull(kubeconfig, "kubeconfig");
    Objects.requireNonNull(agentSocket, "agentSocket");
    Objects.requireNonNull(configSocket, "configSocket");
  }
}
