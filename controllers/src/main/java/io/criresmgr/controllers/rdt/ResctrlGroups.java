package io.criresmgr.controllers.rdt;

import io.criresmgr.controllers.KernelFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Creates cri-resmgr's resctrl groups, writes their schemata and moves tasks into them. */
public final class ResctrlGroups {
  /** The prefix of group directories cri-resmgr owns. */
  public static final String PREFIX = "cri-resmgr.";

  /** Directories of the resctrl root that are not groups. */
  private static final Set<String> NOT_GROUPS = Set.of("info", "mon_groups", "mon_data");

  private final Path root;
  private final String prefix;

  /** cri-resmgr's groups ({@value #PREFIX}{@code <class>}) under resctrl mount {@code root}. */
  public ResctrlGroups(Path root) {
    this(root, PREFIX);
  }

  /**
   * Groups named {@code <prefix><class>} under {@code root}; prefix {@code ""} is Discovery mode's
   * view of the groups that already exist.
   */
  public ResctrlGroups(Path root, String prefix) {
    this.root = Objects.requireNonNull(root, "root");
    this.prefix = Objects.requireNonNull(prefix, "prefix");
  }

  /** The directory of class {@code name}; the root group for {@code ""}. */
  public Path group(String name) {
    return name.isEmpty() ? root : root.resolve(prefix + name);
  }

  /**
   * The classes whose groups exist (directory names with the prefix, without it), sorted.
   *
   * @throws RdtException if the root cannot be listed
   */
  public Set<String> existing() {
    try (Stream<Path> dirs = Files.list(root)) {
      return dirs.filter(Files::isDirectory)
          .map(d -> d.getFileName().toString())
          .filter(n -> n.startsWith(prefix) && n.length() > prefix.length())
          .filter(n -> !NOT_GROUPS.contains(n))
          .map(n -> n.substring(prefix.length()))
          .collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new RdtException("cannot list resctrl groups in " + root + ": " + e, e);
    }
  }

  /**
   * Removes the groups of classes not in {@code keep} (rmdir; the kernel moves their tasks to the
   * root group). Only for a non-empty prefix, so other software's groups are never touched.
   *
   * @throws RdtException naming the group that could not be removed
   */
  public void removeExcept(Set<String> keep) {
    if (prefix.isEmpty()) {
      throw new IllegalStateException("refusing to remove groups without a prefix");
    }
    for (String name : existing()) {
      if (!keep.contains(name)) {
        Path dir = group(name);
        try {
          Files.delete(dir);
        } catch (IOException e) {
          throw new RdtException("cannot remove resctrl group " + dir + ": " + e, e);
        }
      }
    }
  }

  /**
   * Creates each class's group if missing and writes its schemata lines unless the group's {@code
   * schemata} already holds every one of them (so reapplying changes nothing).
   *
   * @throws RdtException naming the path that could not be created or written
   */
  public void apply(Map<String, List<String>> schemata) {
    schemata.forEach(this::applyGroup);
  }

  private void applyGroup(String name, List<String> lines) {
    Path dir = group(name);
    Path file = dir.resolve("schemata");
    try {
      Files.createDirectories(dir);
      if (Files.exists(file)
          && Files.readAllLines(file).stream().map(String::trim).toList().containsAll(lines)) {
        return;
      }
      if (!lines.isEmpty()) {
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.US_ASCII);
      }
    } catch (IOException e) {
      throw new RdtException("cannot write resctrl group " + dir + ": " + e, e);
    }
  }

  /**
   * The pids of a container: the {@code cgroup.procs} of its cgroup directory {@code cgroupDir}, as
   * cri-resmgr takes them from the container's cpu cgroup.
   *
   * @throws RdtException naming the file if it cannot be read or holds something else than pids
   */
  public static List<Long> pids(Path cgroupDir) {
    Path procs = cgroupDir.resolve("cgroup.procs");
    try {
      return Files.readAllLines(procs).stream()
          .map(String::trim)
          .filter(l -> !l.isEmpty())
          .map(Long::parseLong)
          .toList();
    } catch (IOException | NumberFormatException e) {
      throw new RdtException("cannot read pids from " + procs + ": " + e, e);
    }
  }

  /**
   * Moves {@code pids} into class {@code name} ({@code ""}: the root group): one write per pid to
   * the group's {@code tasks}, as the kernel takes one task per write.
   *
   * @throws RdtException naming the {@code tasks} file and the pid that could not be written
   */
  public void assign(String name, List<Long> pids) {
    Path tasks = group(name).resolve("tasks");
    for (long pid : pids) {
      try {
        KernelFiles.writeLine(tasks, Long.toString(pid));
      } catch (IOException e) {
        throw new RdtException("cannot write pid " + pid + " to " + tasks + ": " + e, e);
      }
    }
  }
}
