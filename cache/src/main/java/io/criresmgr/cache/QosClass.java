package io.criresmgr.cache;

import java.util.ArrayList;
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
   * systemd {@code kubepods-burstable-pod<uid>.slice}, optionally below a kubelet {@code
   * --cgroup-root}); {@link #BEST_EFFORT} when it says nothing.
   */
  public static QosClass fromCgroupParent(String cgroupParent) {
    boolean inKubepods = false;
    for (String token : tokens(cgroupParent)) {
      if (token.equals("kubepods")) {
        inKubepods = true;
      } else if (inKubepods && token.equals("besteffort")) {
        return BEST_EFFORT;
      } else if (inKubepods && token.equals("burstable")) {
        return BURSTABLE;
      } else if (inKubepods && token.startsWith("pod")) {
        return GUARANTEED;
      }
    }
    return BEST_EFFORT;
  }

  // Path components without ".slice", split at systemd's '-' nesting separator: both
  // "/kubepods/burstable/pod1" and "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-
  // pod1.slice" give kubepods, (kubepods,) burstable, ... Tokens before "kubepods" belong to a
  // cgroup root (which may well be called "podman") and are ignored.
  private static List<String> tokens(String cgroupParent) {
    List<String> tokens = new ArrayList<>();
    for (String component : cgroupParent.split("/", -1)) {
      String name =
          component.endsWith(".slice") ? component.substring(0, component.length() - 6) : component;
      tokens.addAll(List.of(name.split("-")));
    }
    return tokens;
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
