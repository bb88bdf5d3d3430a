package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CPUs and memory nodes containers adopted at start-up ran on, as the runtime reports them:
 * what the policy is asked to grant again ({@link io.criresmgr.policy.Policy#adopt}), and, once
 * every container is adopted, a warning for each one it moved.
 */
final class AdoptedPlacements {
  private static final Logger LOG = LoggerFactory.getLogger(AdoptedPlacements.class);

  private final Map<String, Assignment> before = new LinkedHashMap<>();

  /** Records and returns the CPUs and memory nodes {@code status} reports for {@code cacheId}. */
  Assignment record(String cacheId, ContainerStatus status) {
    Assignment current = current(status);
    before.put(cacheId, current);
    return current;
  }

  private static Assignment current(ContainerStatus status) {
    if (!status.getResources().hasLinux()) {
      return Assignment.NONE;
    }
    try {
      return Assignment.of(
          CpuSet.parse(status.getResources().getLinux().getCpusetCpus()),
          CpuSet.parse(status.getResources().getLinux().getCpusetMems()));
    } catch (IllegalArgumentException e) {
      LOG.warn("container {}: unreadable cpuset in its status: {}", status.getId(), e.getMessage());
      return Assignment.NONE;
    }
  }

  /** Logs every recorded container whose CPUs or memory nodes in {@code cache} differ. */
  void reportMoves(NodeCache cache) {
    before.forEach(
        (cacheId, was) -> cache.container(cacheId).ifPresent(now -> reportMove(now, was)));
  }

  private static void reportMove(Container now, Assignment was) {
    Assignment after = now.assignment();
    boolean cpusMoved = !after.cpus().isEmpty() && !after.cpus().equals(was.cpus());
    boolean memsMoved = !after.mems().isEmpty() && !after.mems().equals(was.mems());
    if (!was.equals(Assignment.NONE) && (cpusMoved || memsMoved)) {
      LOG.warn(
          "adopted container {} moves from CPUs \"{}\", memory nodes \"{}\" to CPUs \"{}\", memory"
              + " nodes \"{}\": the policy could not give it what it had",
          now.cacheId(),
          was.cpus(),
          was.mems(),
          after.cpus(),
          after.mems());
    }
  }
}
