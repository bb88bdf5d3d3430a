package io.criresmgr.controllers.cgroups;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds fake cgroup mounts (v1, v2, hybrid) under a test directory, shaped like this machine's
 * {@code /sys/fs/cgroup}, and cgroups in them with the kernel's default file contents; shared by
 * the controllers' tests.
 */
public final class FakeCgroupTree {
  private static final Map<String, Map<String, String>> V1_FILES =
      Map.of(
          "cpuset", Map.of("cpuset.cpus", "0-3\n", "cpuset.mems", "0\n"),
          "cpu",
              Map.of(
                  "cpu.shares",
                  "1024\n",
                  "cpu.cfs_quota_us",
                  "-1\n",
                  "cpu.cfs_period_us",
                  "100000\n"),
          "memory", Map.of("memory.limit_in_bytes", "9223372036854771712\n"));
  private static final Map<String, String> V2_FILES =
      Map.of(
          "cpuset.cpus", "\n",
          "cpuset.mems", "\n",
          "cpu.weight", "100\n",
          "cpu.max", "max 100000\n",
          "memory.max", "max\n",
          "memory.high", "max\n",
          "memory.swap.max", "max\n");

  /** The mount: the v2 root, or the directory of the v1 hierarchies. */
  public final Path root;

  private final Map<Path, Map<String, String>> hierarchies = new LinkedHashMap<>();

  private FakeCgroupTree(Path root) {
    this.root = root;
  }

  /** v1 hierarchies cpuset, cpu, cpuacct, memory, blkio plus the named systemd one. */
  public static FakeCgroupTree v1(Path root) {
    FakeCgroupTree tree = new FakeCgroupTree(root);
    for (String name : List.of("cpuset", "cpu", "cpuacct", "memory", "blkio", "systemd")) {
      tree.hierarchy(root.resolve(name), V1_FILES.getOrDefault(name, Map.of()));
    }
    return tree;
  }

  /** v1 plus {@code unified/} whose cgroup.controllers is {@code controllers}. */
  public static FakeCgroupTree hybrid(Path root, String controllers) {
    FakeCgroupTree tree = v1(root);
    Path unified = root.resolve("unified");
    tree.hierarchy(unified, Map.of("cgroup.procs", ""));
    write(unified.resolve("cgroup.controllers"), controllers + "\n");
    return tree;
  }

  /** A v2 mount at the root enabling {@code controllers}. */
  public static FakeCgroupTree v2(Path root, String controllers) {
    FakeCgroupTree tree = new FakeCgroupTree(root);
    tree.hierarchy(root, V2_FILES);
    write(root.resolve("cgroup.controllers"), controllers + "\n");
    return tree;
  }

  /** Creates cgroup {@code relative} in every hierarchy, with default files. */
  public FakeCgroupTree cgroup(String relative) {
    hierarchies.forEach(
        (dir, files) -> {
          Path cg = dir.resolve(relative);
          mkdirs(cg);
          files.forEach((name, content) -> write(cg.resolve(name), content));
        });
    return this;
  }

  /** Creates cgroup {@code relative} like {@link #cgroup} and returns its directory under root. */
  public Path cgroupDir(String relative) {
    cgroup(relative);
    return root.resolve(relative);
  }

  /** The content of {@code root/relative}. */
  public String read(String relative) {
    return read(root.resolve(relative));
  }

  /** The content of {@code file}. */
  public static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void hierarchy(Path dir, Map<String, String> files) {
    mkdirs(dir);
    hierarchies.put(dir, files);
  }

  /** Creates {@code dir} and its parents. */
  public static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code content} into {@code file}. */
  public static void write(Path file, String content) {
    try {
      Files.writeString(file, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
