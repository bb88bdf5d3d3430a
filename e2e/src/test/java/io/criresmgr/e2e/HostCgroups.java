package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Reads the host's cgroup v1 files of a container. With the cgroupfs driver runc puts a container
 * at {@code /<cgroup parent>/<container id>} in every controller hierarchy.
 */
final class HostCgroups {
  private final Path root;

  /** Cgroups mounted under {@code root} (normally {@code /sys/fs/cgroup}). */
  HostCgroups(Path root) {
    this.root = Objects.requireNonNull(root, "root");
  }

  /** The cpuset, memory limit and CPU shares of container {@code id} below {@code parent}. */
  CgroupValues read(String parent, String id) throws IOException {
    return new CgroupValues(
        read("cpuset", parent, id, "cpuset.cpus"),
        read("memory", parent, id, "memory.limit_in_bytes"),
        read("cpu", parent, id, "cpu.shares"));
  }

  /** One file, trimmed. */
  String read(String controller, String parent, String id, String file) throws IOException {
    Path path = root.resolve(controller).resolve(relative(parent)).resolve(id).resolve(file);
    return Files.readString(path, StandardCharsets.UTF_8).trim();
  }

  /** Writes {@code value} into one file, as {@code echo value > file} does. */
  void write(String controller, String parent, String id, String file, String value)
      throws IOException {
    Path path = root.resolve(controller).resolve(relative(parent)).resolve(id).resolve(file);
    Files.writeString(path, value, StandardCharsets.UTF_8);
  }

  /**
   * Removes the (empty) parent directory in every hierarchy, and then its parents up to the top
   * level while they are empty; leftovers are ignored.
   */
  void removeParent(String parent) throws IOException {
    List<Path> hierarchies;
    try (Stream<Path> s = Files.list(root)) {
      hierarchies = s.toList();
    }
    for (Path h : hierarchies) {
      for (Path dir = Path.of(relative(parent)); dir != null; dir = dir.getParent()) {
        try {
          Files.deleteIfExists(h.resolve(dir));
        } catch (IOException e) {
          break; // still in use (a container left behind); stop-containerd.sh retries
        }
      }
    }
  }

  private static String relative(String parent) {
    return parent.startsWith("/") ? parent.substring(1) : parent;
  }
}
