package io.criresmgr.controllers.memoryqos;

import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.cgroups.CgroupException;
import io.criresmgr.controllers.cgroups.CgroupLayout;
import io.criresmgr.controllers.cgroups.CgroupMode;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * Whether this host has the files memory QoS sets: {@code memory.high} and {@code memory.swap.max}
 * exist only with cgroup v2 (mounted alone, not hybrid) enabling the memory controller. On cgroup
 * v1 and hybrid hosts runc refuses CRI unified resources, so the controller must not add them.
 */
final class MemoryQosHost {
  /** What the controller needs, the end of every refusal. */
  static final String NEEDS = "memory QoS needs cgroup v2 with the memory controller";

  private MemoryQosHost() {}

  /**
   * The cgroup layout under {@code cgroupMount} if memory QoS can work with it.
   *
   * @throws ControllerException naming the layout found and what is needed
   */
  static CgroupLayout check(Path cgroupMount) {
    CgroupLayout layout;
    try {
      layout = CgroupLayout.detect(cgroupMount);
    } catch (CgroupException e) {
      throw new ControllerException(NEEDS + ", but " + e.getMessage(), e);
    }
    if (layout.mode() == CgroupMode.V2 && layout.unifiedControllers().contains("memory")) {
      return layout;
    }
    throw new ControllerException(
        "memory.high and memory.swap.max do not exist on this host: "
            + found(layout)
            + "; "
            + NEEDS);
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
