package io.criresmgr.controllers.cgroups;

import io.criresmgr.controllers.ControllerException;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * Whether this host has the cgroup v2 memory files ({@code memory.high}, {@code memory.swap.max})
 * that memory QoS and memtierd set: only cgroup v2 mounted alone (not hybrid) with the memory
 * controller enabled has them. On cgroup v1 and hybrid hosts runc refuses CRI unified resources
 * ("cannot use unified on cgroup v1"), so a controller must not add them there: the container would
 * not be created.
 */
public final class UnifiedMemoryHost {
  private UnifiedMemoryHost() {}

  /**
   * The cgroup layout under {@code cgroupMount} if it has the v2 memory files.
   *
   * @param who the controller, e.g. {@code memory QoS}: the refusal ends with "{@code <who> needs
   *     cgroup v2 with the memory controller}"
   * @throws ControllerException naming the layout found and what is needed
   */
  public static CgroupLayout check(Path cgroupMount, String who) {
    String needs = who + " needs cgroup v2 with the memory controller";
    CgroupLayout layout;
    try {
      layout = CgroupLayout.detect(cgroupMount);
    } catch (CgroupException e) {
      throw new ControllerException(needs + ", but " + e.getMessage(), e);
    }
    if (layout.mode() == CgroupMode.V2 && layout.unifiedControllers().contains("memory")) {
      return layout;
    }
    throw new ControllerException(
        "memory.high and memory.swap.max do not exist on this host: "
            + found(layout)
            + "; "
            + needs);
  }

  private static String found(CgroupLayout layout) {
    String enabled =
        layout.unifiedControllers().isEmpty()
            ? "no controllers"
            : "only " + String.join(", ", new TreeSet<>(layout.unifiedControllers()));
    return switch (layout.mode()) {
      case V1 -> "cgroups under " + layout.root() + " are v1 only";
      case HYBRID ->
          "cgroups under "
              + layout.root()
              + " are hybrid, memory is a v1 controller and the v2 hierarchy "
              + layout.unifiedRoot().orElseThrow()
              + " enables "
              + enabled;
      case V2 ->
          "the cgroup v2 hierarchy "
              + layout.root()
              + " does not enable the memory controller (it enables "
              + enabled
              + ")";
    };
  }
}
