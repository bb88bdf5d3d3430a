package io.criresmgr.agent.config;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A sink that remembers what it got. */
final class RecordingSink implements ConfigSink {
  final List<ChosenConfig> received = new CopyOnWriteArrayList<>();

  @Override
  public void accept(ChosenConfig config) {
    received.add(config);
  }
}
