package io.criresmgr.controllers.rdt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A discovered resctrl file system: its root and what {@code info/} says about L2, L3 and MB.
 *
 * @param root the mount point, e.g. {@code /sys/fs/resctrl}
 * @param l2 L2 cache allocation, if supported
 * @param l3 L3 cache allocation, if supported
 * @param mb memory bandwidth allocation, if supported
 */
public record Resctrl(
    Path root, Optional<CacheInfo> l2, Optional<CacheInfo> l3, Optional<MbInfo> mb) {
  /** The usual mount point. */
  public static final Path DEFAULT_ROOT = Path.of("/sys/fs/resctrl");

  /** Checks for nulls. */
  public Resctrl {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(l2, "l2");
    Objects.requireNonNull(l3, "l3");
    Objects.requireNonNull(mb, "mb");
  }

  /**
   * Reads {@code <root>/info} and the root group's {@code schemata}.
   *
   * @throws RdtException if resctrl is not mounted at {@code root} (no {@code info} directory) or a
   *     file is unreadable or malformed, naming the path
   */
  public static Resctrl discover(Path root) {
    Path info = root.resolve("info");
    if (!Files.isDirectory(info)) {
      throw new RdtException(
          "resctrl not available: "
              + info
              + " does not exist (is resctrl mounted at "
              + root
              + "?)");
    }
    List<String> schemata = readLines(root.resolve("schemata"));
    return new Resctrl(
        root,
        cache(info.resolve("L2"), ids(schemata, "L2")),
        cache(info.resolve("L3"), ids(schemata, "L3")),
        mb(info.resolve("MB"), ids(schemata, "MB")));
  }

  private static Optional<CacheInfo> cache(Path dir, List<Integer> ids) {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    long mask = parse(dir.resolve("cbm_mask"), 16);
    return Optional.of(
        new CacheInfo(
            mask,
            (int) parse(dir.resolve("min_cbm_bits"), 10),
            (int) parse(dir.resolve("num_closids"), 10),
            ids));
  }

  private static Optional<MbInfo> mb(Path dir, List<Integer> ids) {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    return Optional.of(
        new MbInfo(
            (int) parse(dir.resolve("min_bandwidth"), 10),
            (int) parse(dir.resolve("bandwidth_gran"), 10),
            (int) parse(dir.resolve("num_closids"), 10),
            ids));
  }

  /** The ids of schemata line {@code <resource>:<id>=<value>;...}, e.g. {@code L3:0=fff;1=fff}. */
  static List<Integer> ids(List<String> schemata, String resource) {
    List<Integer> ids = new ArrayList<>();
    for (String line : schemata) {
      String l = line.trim();
      if (l.startsWith(resource + ":")) {
        for (String part : l.substring(resource.length() + 1).split(";", -1)) {
          ids.add(cacheId(part, line));
        }
      }
    }
    return ids;
  }

  private static int cacheId(String part, String line) {
    int eq = part.indexOf('=');
    try {
      return Integer.parseInt(eq < 0 ? part : part.substring(0, eq).trim());
    } catch (NumberFormatException e) {
      throw new RdtException("resctrl schemata: malformed line \"" + line.trim() + "\"", e);
    }
  }

  private static long parse(Path file, int radix) {
    String text = readLines(file).stream().findFirst().orElse("").trim();
    try {
      return Long.parseLong(text, radix);
    } catch (NumberFormatException e) {
      throw new RdtException(file + ": unexpected content \"" + text + "\"", e);
    }
  }

  private static List<String> readLines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new RdtException("cannot read " + file + ": " + e, e);
    }
  }
}
