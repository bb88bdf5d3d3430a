package io.criresmgr.agent.config;

/** Receives the node's configuration each time the choice changes. */
@FunctionalInterface
public interface ConfigSink {
  /** Takes the newly chosen configuration; called from one thread at a time. */
  void accept(ChosenConfig config);
}
