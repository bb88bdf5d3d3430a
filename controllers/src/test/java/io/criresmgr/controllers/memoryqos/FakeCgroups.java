package io.criresmgr.controllers.memoryqos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fake cgroup mounts shaped like real ones, as far as memory QoS looks at them: v1 controller
 * directories, a v2 root with {@code cgroup.controllers}, or both (hybrid, v2 at {@code unified}).
 */
final class FakeCgroups {
  private FakeCgroups() {}

  /** v1 hierarchies cpuset, cpu,cpuacct, memory, blkio under {@code root}. */
  static Path v1(Path root) {
    for (String name : new String[] {"cpuset", "cpu,cpuacct", "memory", "blkio", "systemd"}) {
      mkdirs(root.resolve(name));
    }
    return root;
  }

  /** v1 plus {@code unified/} enabling {@code controllers}, like this machine (hugetlb). */
  static Path hybrid(Path root, String controllers) {
    v1(root);
    write(root.resolve("unified/cgroup.controllers"), controllers + "\n");
    return root;
  }

  /** A v2 mount at {@code root} enabling {@code controllers}. */
  static Path v2(Path root, String controllers) {
    write(root.resolve("cgroup.controllers"), controllers + "\n");
    return root;
  }

  /** Cgroup {@code relative} of a v2 mount with the kernel's defaults for the memory files. */
  static Path v2Cgroup(Path root, String relative) {
    Path dir = root.resolve(relative);
    write(dir.resolve("memory.max"), "max\n");
    write(dir.resolve("memory.high"), "max\n");
    write(dir.resolve("memory.swap.max"), "max\n");
    return dir;
  }

  /** The content of {@code file}. */
  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void write(Path file, String content) {
    try {
      mkdirs(file.getParent());
      Files.writeString(file, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
