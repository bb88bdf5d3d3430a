package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.CacheSnapshot;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.proxy.core.cri.ContainerCodec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Two copies of a node for calling a policy directly: one where the measured container was just
 * inserted (state creating, no assignment) and one where it holds what the policy gave it and is
 * being released (state stale). The policy must not change either, so each call sees the same.
 *
 * @param beforeAllocate the node as {@code allocate} sees it
 * @param toAllocate the container to allocate
 * @param beforeRelease the node as {@code release} sees it
 * @param toRelease the container to release
 */
record PolicyFixture(
    NodeCache beforeAllocate, Container toAllocate, NodeCache beforeRelease, Container toRelease) {
  /**
   * Builds both nodes from {@code snapshot}, which must hold the request's pod; the release node
   * holds what {@code policy} decided for the allocation.
   */
  static PolicyFixture of(CacheSnapshot snapshot, CreateContainerRequest request, Policy policy) {
    NodeCache node = NodeCache.restore(snapshot);
    Pod pod = node.pod(request.getPodSandboxId()).orElseThrow();
    String cacheId = ContainerCodec.cacheId(pod, request.getConfig().getMetadata().getName());
    Container created = ContainerCodec.fromRequest(cacheId, node.nextSeq(), pod, request);
    node.putContainer(created);
    NodeCache released = released(node, policy.allocate(created, node), cacheId);
    return new PolicyFixture(node, created, released, released.container(cacheId).orElseThrow());
  }

  /** Applies {@code decisions} to a copy of {@code node} and marks the container stale. */
  private static NodeCache released(NodeCache node, Decisions decisions, String cacheId) {
    NodeCache copy = NodeCache.restore(node.snapshot());
    Map<String, Assignment> assignments = new LinkedHashMap<>();
    decisions.updates().forEach(u -> assignments.put(u.cacheId(), u.assignment()));
    copy.applyAssignments(assignments, Set.of());
    copy.putContainer(copy.container(cacheId).orElseThrow().withState(ContainerState.STALE));
    return copy;
  }
}
