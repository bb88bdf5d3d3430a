package io.criresmgr.controllers.cgroups;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A container's cgroup: the same relative path in every hierarchy of a layout.
 *
 * @param layout the hierarchies under the cgroup mount
 * @param relative the cgroup's path relative to a hierarchy root (never absolute)
 */
public record ContainerCgroup(CgroupLayout layout, Path relative) {
  /** Checks nulls and that {@code relative} is relative. */
  public ContainerCgroup {
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(relative, "relative");
    if (relative.isAbsolute()) {
      throw new IllegalArgumentException("cgroup path must be relative: " + relative);
    }
  }

  /**
   * The cgroup's directory in the hierarchy holding {@code controller}'s files.
   *
   * @throws CgroupException if the controller is not mounted
   */
  public Path dir(String controller) {
    return layout.hierarchy(controller).resolve(relative);
  }

  /** The cgroup's directory in the v2 hierarchy (V2 and HYBRID), empty on a v1-only host. */
  public Optional<Path> unifiedDir() {
    return layout.unifiedRoot().map(r -> r.resolve(relative));
  }
}
