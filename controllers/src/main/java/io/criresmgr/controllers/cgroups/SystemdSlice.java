package io.criresmgr.controllers.cgroups;

import java.util.ArrayList;
import java.util.List;

/**
 * Expands a systemd slice name into its path below the cgroup root, as systemd does: every
 * dash-separated prefix is a parent slice, so {@code kubepods-burstable-pod1.slice} lives at {@code
 * kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice}. The root slice {@code
 * -.slice} is the empty path.
 */
final class SystemdSlice {
  private SystemdSlice() {}

  /**
   * The slice's path relative to a hierarchy root, '/'-separated.
   *
   * @throws CgroupException if {@code slice} is not a valid slice name
   */
  static String expand(String slice) {
    if (!slice.endsWith(".slice") || slice.contains("/")) {
      throw invalid(slice, "expected a name ending in .slice without '/'");
    }
    String base = slice.substring(0, slice.length() - ".slice".length());
    if (base.equals("-")) {
      return "";
    }
    if (base.isEmpty() || base.startsWith("-") || base.endsWith("-") || base.contains("--")) {
      throw invalid(slice, "empty dash-separated component");
    }
    List<String> parts = new ArrayList<>();
    String prefix = "";
    for (String component : base.split("-", -1)) {
      prefix = prefix.isEmpty() ? component : prefix + "-" + component;
      parts.add(prefix + ".slice");
    }
    return String.join("/", parts);
  }

  private static CgroupException invalid(String slice, String why) {
    return new CgroupException("invalid systemd slice \"" + slice + "\": " + why);
  }
}
