package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs, once per pod, the annotations under the cri-resmgr and nri-plugins domains that neither
 * this policy nor another part of the daemon reads (typos such as {@code prefer-isolated-cpu}, or
 * nri-plugins features we lack). The pods already reported are remembered in a small bounded set,
 * the only mutable state of this package, so a busy node does not grow it without limit.
 */
final class UnknownAnnotations {
  private static final Logger LOG = LoggerFactory.getLogger(UnknownAnnotations.class);
  private static final int REMEMBERED = 1024;

  // Names read elsewhere: controllers, the webhook's resources, affinities, device hints.
  private static final Set<String> ELSEWHERE =
      Set.of(
          "resources",
          "rdtclass",
          "blockioclass",
          "toptierlimit",
          DeviceHintScores.USE,
          DeviceHintScores.STRICT,
          "affinity",
          "anti-affinity");

  private static final Map<String, Boolean> REPORTED =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > REMEMBERED;
        }
      };

  private UnknownAnnotations() {}

  /** Logs the unknown keys of {@code pod}, unless this pod was reported before. */
  static void report(Pod pod) {
    List<String> unknown = unknown(pod);
    if (unknown.isEmpty() || !firstTime(pod.namespace() + "/" + pod.name())) {
      return;
    }
    LOG.warn(
        "pod {}/{}: annotations {} are not used by the topology-aware policy and are ignored"
            + " (known: {}, with the domain {} or {})",
        pod.namespace(),
        pod.name(),
        unknown,
        Annotations.NAMES,
        Annotations.CRI,
        Annotations.NRI);
  }

  /** The keys of {@code pod} under our domains that nothing reads, sorted. */
  static List<String> unknown(Pod pod) {
    List<String> out = new ArrayList<>();
    for (String key : pod.annotations().keySet()) {
      String name = name(key);
      if (name != null && !Annotations.NAMES.contains(name) && !ELSEWHERE.contains(name)) {
        out.add(key);
      }
    }
    out.sort(null);
    return out;
  }

  // The name part of one of our keys ("x" of x.<domain>[/scope] or <domain>/x), else null.
  private static @org.jspecify.annotations.Nullable String name(String key) {
    for (String domain : List.of(Annotations.CRI, Annotations.NRI)) {
      if (key.startsWith(domain + "/")) {
        return key.substring(domain.length() + 1);
      }
      int slash = key.indexOf('/');
      String base = slash < 0 ? key : key.substring(0, slash);
      if (base.endsWith("." + domain)) {
        return base.substring(0, base.length() - domain.length() - 1);
      }
    }
    return null;
  }

  private static synchronized boolean firstTime(String pod) {
    return REPORTED.put(pod, Boolean.TRUE) == null;
  }
}
