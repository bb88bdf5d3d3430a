package io.criresmgr.controllers.cgroups;

/** How cgroups are mounted under the cgroup mount root. */
public enum CgroupMode {
  /** Only v1 hierarchies, one directory per controller ({@code cpuset}, {@code memory}, ...). */
  V1,
  /** Only the v2 unified hierarchy, mounted at the root itself. */
  V2,
  /** V1 controller hierarchies plus a v2 mount at {@code <root>/unified}. */
  HYBRID
}
