package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ContainerStatsFilter;
import io.criresmgr.api.runtime.v1.ImageFilter;
import io.criresmgr.api.runtime.v1.PodSandboxFilter;
import io.criresmgr.api.runtime.v1.PodSandboxStatsFilter;
import java.util.Map;

/**
 * The CRI list filters. All set fields must match (AND); ids match by prefix, as containerd's
 * truncated-id index does; label selectors are exact {@code matchLabels}.
 */
final class SimFilters {
  private SimFilters() {}

  static boolean matches(PodSandboxFilter f, SimPod pod) {
    return idMatches(f.getId(), pod.id())
        && (!f.hasState() || f.getState().getState() == pod.state())
        && labelsMatch(f.getLabelSelectorMap(), pod.config().getLabelsMap());
  }

  static boolean matches(PodSandboxStatsFilter f, SimPod pod) {
    return idMatches(f.getId(), pod.id())
        && labelsMatch(f.getLabelSelectorMap(), pod.config().getLabelsMap());
  }

  static boolean matches(ContainerFilter f, SimContainer c) {
    return idMatches(f.getId(), c.id())
        && idMatches(f.getPodSandboxId(), c.podId())
        && (!f.hasState() || f.getState().getState() == c.state())
        && labelsMatch(f.getLabelSelectorMap(), c.config().getLabelsMap());
  }

  static boolean matches(ContainerStatsFilter f, SimContainer c) {
    return idMatches(f.getId(), c.id())
        && idMatches(f.getPodSandboxId(), c.podId())
        && labelsMatch(f.getLabelSelectorMap(), c.config().getLabelsMap());
  }

  static boolean matches(ImageFilter f, SimImage image) {
    String ref = f.getImage().getImage();
    return ref.isEmpty() || image.isKnownAs(ImageRefs.normalize(ref));
  }

  private static boolean idMatches(String wanted, String id) {
    return wanted.isEmpty() || id.startsWith(wanted);
  }

  private static boolean labelsMatch(Map<String, String> selector, Map<String, String> labels) {
    return selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
  }
}
