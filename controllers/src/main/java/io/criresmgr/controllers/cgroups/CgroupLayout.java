package io.criresmgr.controllers.cgroups;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The cgroup hierarchies found under a cgroup mount root ({@code --cgroup-mount}), decided by
 * probing files and directories (not {@code /proc/self/mountinfo}) so that a fake tree under a test
 * directory looks exactly like the host.
 *
 * <ul>
 *   <li>{@link CgroupMode#V2}: {@code <root>/cgroup.controllers} exists.
 *   <li>{@link CgroupMode#V1}: at least one directory named after a known v1 controller exists;
 *       combined mounts such as {@code cpu,cpuacct} count for each controller they name.
 *   <li>{@link CgroupMode#HYBRID}: as V1, and {@code <root>/unified/cgroup.controllers} exists.
 * </ul>
 *
 * @param root the cgroup mount root
 * @param mode how cgroups are mounted
 * @param v1Hierarchies v1 controller name to its hierarchy's directory (empty for V2)
 * @param unifiedRoot the v2 hierarchy's directory: the root (V2), {@code <root>/unified} (HYBRID)
 * @param unifiedControllers controllers listed in the v2 root's {@code cgroup.controllers}
 */
public record CgroupLayout(
    Path root,
    CgroupMode mode,
    Map<String, Path> v1Hierarchies,
    Optional<Path> unifiedRoot,
    Set<String> unifiedControllers) {

  /** The v1 controllers recognized as hierarchy directories. */
  public static final List<String> V1_CONTROLLERS =
      List.of(
          "cpuset",
          "cpu",
          "cpuacct",
          "memory",
          "blkio",
          "devices",
          "freezer",
          "pids",
          "hugetlb",
          "net_cls",
          "net_prio",
          "perf_event",
          "rdma",
          "misc");

  /** Checks nulls and copies collections. */
  public CgroupLayout {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(mode, "mode");
    v1Hierarchies = Map.copyOf(v1Hierarchies);
    Objects.requireNonNull(unifiedRoot, "unifiedRoot");
    unifiedControllers = Set.copyOf(unifiedControllers);
  }

  /**
   * Detects the layout under {@code root}.
   *
   * @throws CgroupException if the root is not a directory or holds no recognizable hierarchy
   */
  public static CgroupLayout detect(Path root) {
    if (!Files.isDirectory(root)) {
      throw new CgroupException("cgroup mount " + root + " is not a directory");
    }
    if (Files.isRegularFile(root.resolve("cgroup.controllers"))) {
      return new CgroupLayout(
          root, CgroupMode.V2, Map.of(), Optional.of(root), controllersOf(root));
    }
    Map<String, Path> v1 = v1Hierarchies(root);
    if (v1.isEmpty()) {
      throw new CgroupException(
          "no cgroup hierarchy recognized under "
              + root
              + ": expected cgroup.controllers (v2) or controller directories such as cpuset,"
              + " cpu, memory (v1)");
    }
    Path unified = root.resolve("unified");
    if (Files.isRegularFile(unified.resolve("cgroup.controllers"))) {
      return new CgroupLayout(
          root, CgroupMode.HYBRID, v1, Optional.of(unified), controllersOf(unified));
    }
    return new CgroupLayout(root, CgroupMode.V1, v1, Optional.empty(), Set.of());
  }

  /**
   * The hierarchy directory in which {@code controller}'s files live: its v1 hierarchy if there is
   * one, else the unified root if that enables the controller (or on V2, always).
   *
   * @throws CgroupException if the controller is not mounted under the root
   */
  public Path hierarchy(String controller) {
    Path v1 = v1Hierarchies.get(controller);
    if (v1 != null) {
      return v1;
    }
    if (mode == CgroupMode.V2
        || (unifiedRoot.isPresent() && unifiedControllers.contains(controller))) {
      return unifiedRoot.orElseThrow();
    }
    throw new CgroupException(
        "cgroup controller "
            + controller
            + " is not mounted under "
            + root
            + " ("
            + mode
            + ", v1 hierarchies: "
            + new TreeMap<>(v1Hierarchies).keySet()
            + ")");
  }

  private static Map<String, Path> v1Hierarchies(Path root) {
    Map<String, Path> found = new TreeMap<>();
    List<Path> dirs = directories(root);
    // Exact names first, so a separate "cpu" directory wins over a combined "cpu,cpuacct".
    for (Path dir : dirs) {
      String name = dir.getFileName().toString();
      if (V1_CONTROLLERS.contains(name)) {
        found.put(name, dir);
      }
    }
    for (Path dir : dirs) {
      for (String part : dir.getFileName().toString().split(",", -1)) {
        if (V1_CONTROLLERS.contains(part)) {
          found.putIfAbsent(part, dir);
        }
      }
    }
    return found;
  }

  private static List<Path> directories(Path root) {
    try (Stream<Path> entries = Files.list(root)) {
      return entries.filter(Files::isDirectory).sorted().toList();
    } catch (IOException e) {
      throw new CgroupException("cannot list cgroup mount " + root + ": " + e, e);
    }
  }

  private static Set<String> controllersOf(Path unified) {
    Path file = unified.resolve("cgroup.controllers");
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8).strip();
      return text.isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(text.split("\\s+")));
    } catch (IOException e) {
      throw new CgroupException("cannot read " + file + ": " + e, e);
    }
  }
}
