package io.criresmgr.controllers.cgroups;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds a container's cgroup from its pod's cgroup parent (as kubelet passes it in RunPodSandbox)
 * and the container id.
 *
 * <p>Candidates, tried in order, relative to a hierarchy root:
 *
 * <ul>
 *   <li>cgroupfs ({@code /kubepods/burstable/pod<uid>}): {@code <parent>/<id>} (runc, containerd,
 *       Docker), then {@code <parent>/<prefix><id>} for each {@link #RUNTIME_PREFIXES runtime
 *       prefix} (CRI-O uses {@code crio-<id>}).
 *   <li>systemd ({@code kubepods-burstable-pod<uid>.slice}, or an already expanded path ending in a
 *       {@code .slice}): {@code <expanded slices>/<prefix><id>.scope} for each runtime prefix.
 * </ul>
 *
 * The first candidate that is a directory in the probe hierarchy ({@code cpuset} on v1 and hybrid,
 * if mounted, else the first v1 hierarchy; the unified root on v2) wins.
 */
public final class ContainerCgroups {
  /** Scope prefixes of the runtimes: containerd, CRI-O, Docker (cri-dockerd). */
  public static final List<String> RUNTIME_PREFIXES =
      List.of("cri-containerd-", "crio-", "docker-");

  private ContainerCgroups() {}

  /**
   * The container's cgroup under {@code layout}.
   *
   * @throws CgroupException if the arguments are malformed or no candidate exists; the message
   *     names every directory tried
   */
  public static ContainerCgroup find(CgroupLayout layout, String cgroupParent, String containerId) {
    return lookup(layout, cgroupParent, containerId)
        .orElseThrow(() -> notFound(layout, cgroupParent, containerId));
  }

  /**
   * The container's cgroup under {@code layout}, or empty if no candidate exists (yet: containerd
   * creates it only when the container starts).
   *
   * @throws CgroupException if the arguments are malformed
   */
  public static Optional<ContainerCgroup> lookup(
      CgroupLayout layout, String cgroupParent, String containerId) {
    Path probe = probeHierarchy(layout);
    for (String candidate : candidates(cgroupParent, containerId)) {
      if (Files.isDirectory(probe.resolve(candidate))) {
        return Optional.of(new ContainerCgroup(layout, Path.of(candidate)));
      }
    }
    return Optional.empty();
  }

  /** The error for a container without a cgroup, naming every directory tried. */
  static CgroupException notFound(CgroupLayout layout, String cgroupParent, String containerId) {
    Path probe = probeHierarchy(layout);
    List<String> tried = new ArrayList<>();
    for (String candidate : candidates(cgroupParent, containerId)) {
      tried.add(probe.resolve(candidate).toString());
    }
    return new CgroupException(
        "cgroup of container "
            + containerId
            + " (cgroup parent "
            + cgroupParent
            + ") not found; tried "
            + String.join(", ", tried));
  }

  /**
   * The candidate paths, relative to a hierarchy root and '/'-separated, in the order tried.
   *
   * @throws CgroupException if the parent or id is malformed
   */
  public static List<String> candidates(String cgroupParent, String containerId) {
    checkId(containerId);
    List<String> out = new ArrayList<>();
    if (CgroupDriver.of(cgroupParent) == CgroupDriver.SYSTEMD) {
      String slices = systemdPath(cgroupParent);
      for (String prefix : RUNTIME_PREFIXES) {
        out.add(join(slices, prefix + containerId + ".scope"));
      }
    } else {
      String parent = cgroupfsPath(cgroupParent);
      out.add(join(parent, containerId));
      for (String prefix : RUNTIME_PREFIXES) {
        out.add(join(parent, prefix + containerId));
      }
    }
    return List.copyOf(out);
  }

  private static Path probeHierarchy(CgroupLayout layout) {
    if (layout.mode() == CgroupMode.V2) {
      return layout.unifiedRoot().orElseThrow();
    }
    Path cpuset = layout.v1Hierarchies().get("cpuset");
    if (cpuset != null) {
      return cpuset;
    }
    return layout.v1Hierarchies().values().stream().sorted().findFirst().orElseThrow();
  }

  private static String systemdPath(String parent) {
    String p = trimSlashes(parent.strip());
    return p.contains("/") ? checked(parent, p) : SystemdSlice.expand(p);
  }

  private static String cgroupfsPath(String parent) {
    return checked(parent, trimSlashes(parent.strip()));
  }

  private static String checked(String parent, String path) {
    if (path.isEmpty()) {
      return path; // the root cgroup
    }
    for (String part : path.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw new CgroupException(
            "invalid cgroup parent \"" + parent + "\": empty, '.' or '..' path component");
      }
    }
    return path;
  }

  private static void checkId(String id) {
    if (id.isEmpty() || id.contains("/") || id.equals(".") || id.equals("..")) {
      throw new CgroupException(
          "invalid container id \"" + id + "\": expected a non-empty name without '/'");
    }
  }

  private static String trimSlashes(String p) {
    int start = 0;
    int end = p.length();
    while (start < end && p.charAt(start) == '/') {
      start++;
    }
    while (end > start && p.charAt(end - 1) == '/') {
      end--;
    }
    return p.substring(start, end);
  }

  private static String join(String parent, String name) {
    return parent.isEmpty() ? name : parent + "/" + name;
  }
}
