package io.criresmgr.controllers.cgroups;

import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Typed, idempotent writes into one container's cgroup, choosing the v1 or v2 file by where the
 * controller is mounted: a controller with a v1 hierarchy (V1 and HYBRID) gets v1 files, one in the
 * unified hierarchy gets v2 files. Every method returns whether a file was written and throws a
 * {@link CgroupException} naming the file, the value and the OS error when a write fails.
 */
public final class ContainerCgroupWriter {
  /** The page sizes of the architectures we run on (x86-64: 4 KiB; arm64: 4, 16 or 64 KiB). */
  private static final long[] PAGE_SIZES = {4096, 16_384, 65_536};

  /** Unlimited memory: {@code -1} on v1, {@code max} on v2. */
  public static final long UNLIMITED = -1;

  private static final Pattern UNIFIED_FILE = Pattern.compile("[a-z][a-z0-9_]*\\.[a-z0-9_.]+");

  private final ContainerCgroup cgroup;
  private final CgroupWriter writer;

  /** Writes into {@code cgroup} with {@code writer}. */
  public ContainerCgroupWriter(ContainerCgroup cgroup, CgroupWriter writer) {
    this.cgroup = Objects.requireNonNull(cgroup, "cgroup");
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  /** Writes {@code cpuset.cpus} (same name on v1 and v2). */
  public boolean setCpusetCpus(CpusetList cpus) {
    return writer.write(file("cpuset", "cpuset.cpus"), cpus.toString());
  }

  /** Writes {@code cpuset.mems} (same name on v1 and v2). */
  public boolean setCpusetMems(CpusetList mems) {
    return writer.write(file("cpuset", "cpuset.mems"), mems.toString());
  }

  /**
   * Writes v1 {@code cpu.shares}, or v2 {@code cpu.weight} converted by {@link CpuShares#weight}.
   */
  public boolean setCpuShares(CpuShares shares) {
    return isV1("cpu")
        ? writer.write(file("cpu", "cpu.shares"), Long.toString(shares.shares()))
        : writer.write(
            file("cpu", "cpu.weight"),
            Long.toString(shares.weight()),
            // both conversions give the same weight at the ends of the range (2 shares: 1)
            java.util.Set.copyOf(
                java.util.List.of(
                    Long.toString(shares.weight()), Long.toString(shares.quadraticWeight()))));
  }

  /**
   * Writes v1 {@code cpu.cfs_period_us} then {@code cpu.cfs_quota_us} (if the kernel refuses the
   * period first, as it may when the new period conflicts with the old quota, the quota is written
   * first, as runc does), or v2 {@code cpu.max}.
   */
  public boolean setCpuQuota(CpuQuota quota) {
    if (!isV1("cpu")) {
      return writer.write(file("cpu", "cpu.max"), quota.cpuMax());
    }
    Path period = file("cpu", "cpu.cfs_period_us");
    Path limit = file("cpu", "cpu.cfs_quota_us");
    String periodValue = Long.toString(quota.periodUs());
    String limitValue = Long.toString(quota.quotaUs());
    try {
      boolean wrote = writer.write(period, periodValue);
      return writer.write(limit, limitValue) | wrote;
    } catch (CgroupException e) {
      boolean wrote = writer.write(limit, limitValue);
      return writer.write(period, periodValue) | wrote;
    }
  }

  /**
   * Writes v1 {@code memory.limit_in_bytes} or v2 {@code memory.max}.
   *
   * @param bytes the limit, more than 0, or {@link #UNLIMITED}
   */
  public boolean setMemoryLimit(long bytes) {
    if (bytes != UNLIMITED && bytes <= 0) {
      throw new CgroupException(
          "invalid memory limit " + bytes + ": expected more than 0 bytes, or -1 (unlimited)");
    }
    if (isV1("memory")) {
      String value = Long.toString(bytes);
      return writer.write(file("memory", "memory.limit_in_bytes"), value, pageRounded(value));
    }
    String value = bytes == UNLIMITED ? "max" : Long.toString(bytes);
    return writer.write(file("memory", "memory.max"), value, pageRounded(value));
  }

  /**
   * {@code value} and, if it is a number of bytes, what the kernel shows for it in a memory file:
   * rounded down to a whole page (4 KiB, 16 KiB or 64 KiB). Without this a limit such as {@code
   * 100M} (100000000, read back as 99999744) would be rewritten, and reported as drift repaired, at
   * every daemon start.
   */
  static java.util.Set<String> pageRounded(String value) {
    java.util.Set<String> applied = new java.util.LinkedHashSet<>();
    applied.add(value);
    if (!value.isEmpty() && value.chars().allMatch(Character::isDigit) && value.length() < 19) {
      long bytes = Long.parseLong(value);
      for (long page : PAGE_SIZES) {
        applied.add(Long.toString(bytes - bytes % page));
      }
    }
    return applied;
  }

  /**
   * Writes a cgroup v2 file such as {@code memory.high} or {@code memory.swap.max} in the
   * container's unified directory.
   *
   * @throws CgroupException if the name is not a cgroup file name, the host has no unified
   *     hierarchy, or (hybrid) the file's controller is not enabled there
   */
  public boolean setUnified(String name, String value) {
    if (!UNIFIED_FILE.matcher(name).matches()) {
      throw new CgroupException(
          "invalid cgroup v2 file name \"" + name + "\": expected <controller>.<name>");
    }
    CgroupLayout layout = cgroup.layout();
    Path dir = cgroup.unifiedDir().orElseThrow(() -> noUnified(layout, name));
    String controller = name.substring(0, name.indexOf('.'));
    if (layout.mode() == CgroupMode.HYBRID
        && !controller.equals("cgroup")
        && !layout.unifiedControllers().contains(controller)) {
      throw new CgroupException(
          "cgroup v2 file "
              + name
              + " does not exist on this hybrid host: controller "
              + controller
              + " is not enabled in the unified hierarchy "
              + layout.unifiedRoot().orElseThrow());
    }
    if (controller.equals("memory")) {
      return writer.write(dir.resolve(name), value, pageRounded(CgroupWriter.normalize(value)));
    }
    return writer.write(dir.resolve(name), value);
  }

  private static CgroupException noUnified(CgroupLayout layout, String name) {
    return new CgroupException(
        "cgroup v2 file "
            + name
            + " does not exist on this host: no unified (v2) hierarchy under "
            + layout.root()
            + " (cgroup v1 only)");
  }

  private boolean isV1(String controller) {
    return cgroup.layout().v1Hierarchies().containsKey(controller);
  }

  private Path file(String controller, String name) {
    return cgroup.dir(controller).resolve(name);
  }
}
