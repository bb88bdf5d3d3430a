package io.criresmgr.policy.cpuallocator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a CPU constraint value as cri-resmgr's {@code parseCPU} does: {@code cpuset:<list>}, a bare
 * list containing {@code -} or {@code ,}, or a cgroup ({@code cgroup:<dir>} or {@code /<dir>});
 * anything else is a quantity, left to the caller.
 */
final class CpuValue {
  private CpuValue() {}

  /**
   * The CPUs a list or cgroup value names, or empty if {@code value} is a quantity.
   *
   * @throws PolicyException if a list is malformed or a cgroup cannot be read
   */
  static Optional<CpuSet> list(String value, Path hostRoot) {
    if (value.startsWith("cpuset:")) {
      return Optional.of(parse(value, value.substring("cpuset:".length())));
    }
    if (value.startsWith("cgroup:")) {
      return Optional.of(cgroup(value.substring("cgroup:".length()), hostRoot));
    }
    if (value.startsWith("/")) {
      return Optional.of(cgroup(value, hostRoot));
    }
    if (value.contains("-") || value.contains(",")) {
      return Optional.of(parse(value, value));
    }
    return Optional.empty();
  }

  private static CpuSet parse(String what, String list) {
    try {
      CpuSet cpus = CpuSet.parse(list);
      if (cpus.isEmpty()) {
        throw new IllegalArgumentException(what + ": the CPU list is empty");
      }
      return cpus;
    } catch (IllegalArgumentException e) {
      throw new PolicyException(Objects.requireNonNullElse(e.getMessage(), e.toString()), e);
    }
  }

  /** {@code cpuset.cpus} of the cgroup {@code dir}, tried as given and below the cgroup mounts. */
  private static CpuSet cgroup(String dir, Path hostRoot) {
    String relative = dir.replaceFirst("^/+", "");
    List<Path> tried = new ArrayList<>();
    for (String base : List.of("", "sys/fs/cgroup", "sys/fs/cgroup/cpuset")) {
      Path d = (base.isEmpty() ? hostRoot : hostRoot.resolve(base)).resolve(relative);
      for (String file : List.of("cpuset.cpus", "cpuset.cpus.effective")) {
        Path f = d.resolve(file);
        tried.add(f);
        String text = read(f);
        if (text != null && !text.isBlank()) {
          return parse(f.toString(), text.trim());
        }
      }
    }
    throw new PolicyException(
        "cgroup \"" + dir + "\" has no readable, non-empty cpuset.cpus; tried " + tried);
  }

  private static @org.jspecify.annotations.Nullable String read(Path f) {
    try {
      return Files.isRegularFile(f) ? Files.readString(f) : null;
    } catch (IOException e) {
      return null;
    }
  }
}
