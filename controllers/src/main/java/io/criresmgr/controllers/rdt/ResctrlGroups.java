package io.criresmgr.controllers.rdt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Creates cri-resmgr's resctrl groups, writes their schemata and moves tasks into them. */
public final class ResctrlGroups {
  /** The prefix of group directories cri-resmgr owns. */
  public static final String PREFIX = "cri-resmgr.";

  private final Path root;

  /** Groups under resctrl mount {@code root}. */
  public ResctrlGroups(Path root) {
    this.root = Objects.requireNonNull(root, "root");
  }

  /** The directory of class {@code name}; the root group for {@code ""}. */
  public Path group(String name) {
    return name.isEmpty() ? root : root.resolve(PREFIX + name);
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
   * Moves {@code pids} into class {@code name} ({@code ""}: the root group): one write per pid to
   * the group's {@code tasks}, as the kernel takes one task per write.
   *
   * @throws RdtException naming the {@code tasks} file and the pid that could not be written
   */
  public void assign(String name, List<Long> pids) {
    Path tasks = group(name).resolve("tasks");
    for (long pid : pids) {
      try {
        Files.writeString(
            tasks,
            pid + "\n",
            StandardCharsets.US_ASCII,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new RdtException("cannot write pid " + pid + " to " + tasks + ": " + e, e);
      }
    }
  }
}
