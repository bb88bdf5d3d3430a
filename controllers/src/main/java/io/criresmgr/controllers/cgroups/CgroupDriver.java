package io.criresmgr.controllers.cgroups;

/** The kubelet/runtime cgroup driver, recognized from the form of a pod's cgroup parent. */
public enum CgroupDriver {
  /** Plain paths: {@code /kubepods/burstable/pod<uid>}. */
  CGROUPFS,
  /** Systemd slices: {@code kubepods-burstable-pod<uid>.slice}. */
  SYSTEMD;

  /** {@link #SYSTEMD} if {@code cgroupParent} names a {@code .slice}, else {@link #CGROUPFS}. */
  public static CgroupDriver of(String cgroupParent) {
    String p = cgroupParent.strip();
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p.endsWith(".slice") ? SYSTEMD : CGROUPFS;
  }
}
