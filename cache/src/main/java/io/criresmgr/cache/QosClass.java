package io.criresmgr.cache;

import java.util.List;

/** Kubernetes QoS class of a pod, derived from its cgroup parent as cri-resmgr does. */
public enum QosClass {
  GUARANTEED("Guaranteed"),
  BURSTABLE("Burstable"),
  BEST_EFFORT("BestEffort");

  private final String label;

  QosClass(String label) {
    this.label = label;
  }

  /** The Kubernetes spelling, e.g. {@code BestEffort}. */
  public String label() {
    return label;
  }

  /**
   * The class encoded in a kubelet cgroup parent (cgroupfs {@code /kubepods/burstable/pod<uid>} or
   * systemd {@code kubepods-burstable-pod<uid>.slice}); {@link #BEST_EFFORT} when it says nothing.
   */
  public static QosClass fromCgroupParent(String cgroupParent) {
    for (String component : components(cgroupParent)) {
      String c =
          component.endsWith(".slice") ? component.substring(0, component.length() - 6) : component;
      if (c.equals("besteffort") || c.startsWith("kubepods-besteffort")) {
        return BEST_EFFORT;
      }
      if (c.equals("burstable") || c.startsWith("kubepods-burstable")) {
        return BURSTABLE;
      }
      if (c.startsWith("pod") || c.startsWith("kubepods-pod")) {
        return GUARANTEED;
      }
    }
    return BEST_EFFORT;
  }

  private static List<String> components(String cgroupParent) {
    // systemd's driver gives a single slice name; cgroupfs gives a path.
    return List.of(cgroupParent.split("/"));
  }

  /** Parses the Kubernetes spelling (case-insensitive). */
  public static QosClass parse(String label) {
    for (QosClass q : values()) {
      if (q.label.equalsIgnoreCase(label)) {
        return q;
      }
    }
    throw new IllegalArgumentException(
        "invalid QoS class \"" + label + "\", expected Guaranteed, Burstable or BestEffort");
  }

  @Override
  public String toString() {
    return label;
  }
}
