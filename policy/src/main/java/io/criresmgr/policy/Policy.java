package io.criresmgr.policy;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.NodeState;

/**
 * A placement policy: decides which CPUs and memory nodes each container gets. Every method runs on
 * the pipeline thread and returns immutable {@link Decisions}; the pipeline applies them to the
 * cache all or nothing and has controllers enforce them. A policy must not mutate anything it is
 * given; its own state between calls belongs in {@link Decisions#policyData()}, so that the cache
 * persists it and a rejected decision leaves no trace.
 *
 * <p>Throw {@link PolicyException} when a request cannot be satisfied; the request fails with its
 * message and nothing changes.
 */
public interface Policy {
  /**
   * Decides resources for {@code container}, which is in the cache already (state {@code CREATING},
   * or {@code RUNNING} when adopted at start-up).
   */
  Decisions allocate(Container container, NodeState node);

  /**
   * Decides resources for {@code container}, found created or running in the runtime at start-up
   * although the cache did not know it (the cache was lost), like {@link #allocate}. Containers are
   * adopted in creation order. {@code current} holds the CPUs and memory nodes the runtime reports
   * for it: normally what an earlier run granted. A policy should grant the same again where the
   * grant allows it (the same exclusive CPUs if they are free, the same pool or balloon type), so
   * that losing the cache moves no container; it must stay as correct as {@code allocate} (never
   * the same CPU exclusively twice). The pipeline logs every container whose CPUs or memory nodes
   * changed. By default {@link #allocate}, which ignores {@code current}.
   */
  default Decisions adopt(Container container, Assignment current, NodeState node) {
    return allocate(container, node);
  }

  /** Releases what {@code container} held; it is still in the cache, no longer active. */
  Decisions release(Container container, NodeState node);

  /** Re-decides after {@code container}'s requested resources changed. */
  Decisions update(Container container, NodeState node);

  /** Reconsiders every assignment (periodically, with {@code --rebalance-interval}). */
  default Decisions rebalance(NodeState node) {
    return Decisions.NONE;
  }

  /**
   * Called once after the start-up synchronization with the runtime, before any request: adapts
   * assignments an earlier run made, perhaps under other options. By default no change.
   */
  default Decisions start(NodeState node) {
    return Decisions.NONE;
  }

  /**
   * Called once on a policy created for new options of the running policy (a configuration reload),
   * before any other call: adapts the assignments made under the old options. Throw {@link
   * PolicyException} to refuse the new options; the old policy then stays active. By default the
   * same as {@link #rebalance}.
   */
  default Decisions reconfigure(NodeState node) {
    return rebalance(node);
  }

  /** Reacts to an event (a container started, a policy timer fired). */
  default Decisions handleEvent(PolicyEvent event, NodeState node) {
    return Decisions.NONE;
  }
}
