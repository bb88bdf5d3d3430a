package io.criresmgr.proxy;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.NodeState;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;

/** A policy that decides nothing; tests override the calls they watch. */
public class NoDecisions implements Policy {
  @Override
  public Decisions allocate(Container container, NodeState node) {
    return Decisions.NONE;
  }

  @Override
  public Decisions release(Container container, NodeState node) {
    return Decisions.NONE;
  }

  @Override
  public Decisions update(Container container, NodeState node) {
    return Decisions.NONE;
  }
}
