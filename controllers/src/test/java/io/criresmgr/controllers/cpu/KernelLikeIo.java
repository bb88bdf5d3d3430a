package io.criresmgr.controllers.cpu;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * File access that acts like the kernel's cpufreq and uncore attributes: a minimum above the
 * current maximum or a maximum below the current minimum is refused with {@code Invalid argument}.
 * Records every write as {@code <cpuN or package_XX_die_YY>/<file>=<value>} and refuses writes to
 * chosen files.
 */
final class KernelLikeIo implements SysfsIo {
  final List<String> writes = new ArrayList<>();
  private final Set<Path> denied = new HashSet<>();

  KernelLikeIo deny(Path file) {
    denied.add(file);
    return this;
  }

  @Override
  public String read(Path file) throws IOException {
    return FILES.read(file);
  }

  @Override
  public void write(Path file, String value) throws IOException {
    if (denied.contains(file)) {
      throw new AccessDeniedException(file.toString());
    }
    String name = file.getFileName().toString();
    long v = Long.parseLong(value);
    if (name.startsWith("scaling_min") || name.startsWith("min_")) {
      check(v <= current(file, name.replace("min", "max")));
    } else {
      check(v >= current(file, name.replace("max", "min")));
    }
    FILES.write(file, value);
    Path dir = file.getParent();
    String owner = dir.getFileName().toString().equals("cpufreq") ? dir.getParent() + "" : dir + "";
    writes.add(Path.of(owner).getFileName() + "/" + name + "=" + value);
  }

  private long current(Path file, String sibling) throws IOException {
    return Long.parseLong(FILES.read(file.resolveSibling(sibling)).strip());
  }

  private static void check(boolean ok) throws IOException {
    if (!ok) {
      throw new IOException("Invalid argument");
    }
  }
}
