package io.criresmgr.controllers;

import io.criresmgr.cache.Pod;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Logs each warning about a pod's annotations once per pod: every container of the pod, every
 * kubelet update and every restart would otherwise repeat it. Not thread-safe: use it from the
 * pipeline thread only, as the hooks are.
 */
public final class PodWarnings {
  private final Logger log;
  private final String prefix;
  private final Map<String, Set<String>> logged = new HashMap<>();

  /**
   * Warnings logged to {@code log} (the owning controller's logger) as {@code "<prefix> pod
   * <namespace>/<name>: <warning>"}.
   */
  public PodWarnings(Logger log, String prefix) {
    this.log = Objects.requireNonNull(log, "log");
    this.prefix = Objects.requireNonNull(prefix, "prefix");
  }

  /** Logs those of {@code warnings} not logged for {@code pod} yet. */
  public void warn(Pod pod, List<String> warnings) {
    for (String w : warnings) {
      if (logged.computeIfAbsent(pod.id(), id -> new HashSet<>()).add(w)) {
        log.warn("{} pod {}/{}: {}", prefix, pod.namespace(), pod.name(), w);
      }
    }
  }

  /** Forgets pod {@code podId}: its warnings are logged again should they recur. */
  public void forget(String podId) {
    logged.remove(podId);
  }

  /** Forgets the pods that are no longer in {@code node}. */
  public void forgetGone(NodeView node) {
    logged.keySet().removeIf(id -> node.pod(id).isEmpty());
  }

  /** Forgets every pod. */
  public void clear() {
    logged.clear();
  }
}
