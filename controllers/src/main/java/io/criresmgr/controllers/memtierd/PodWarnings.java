package io.criresmgr.controllers.memtierd;

import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.NodeView;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each warning about a pod's memtierd annotations once per pod: every container of the pod,
 * every kubelet update and every restart would otherwise repeat it. Not thread-safe.
 */
final class PodWarnings {
  private static final Logger LOG = LoggerFactory.getLogger(PodWarnings.class);

  private final Map<String, Set<String>> logged = new HashMap<>();

  /** Logs those of {@code warnings} not logged for {@code pod} yet. */
  void warn(Pod pod, List<String> warnings) {
    for (String w : warnings) {
      if (logged.computeIfAbsent(pod.id(), id -> new HashSet<>()).add(w)) {
        LOG.warn("memtierd: pod {}/{}: {}", pod.namespace(), pod.name(), w);
      }
    }
  }

  /** Forgets the pods that are no longer in {@code node}. */
  void forgetGone(NodeView node) {
    logged.keySet().removeIf(id -> node.pod(id).isEmpty());
  }

  /** Forgets every pod. */
  void clear() {
    logged.clear();
  }
}
