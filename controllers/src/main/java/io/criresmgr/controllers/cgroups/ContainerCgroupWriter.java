package io.criresmgr.controllers.cgroups;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Typed, idempotent writes into one container's cgroup, choosing the v1 or v2 file by where the
 * controller is mounted: a controller with a v1 hierarchy (V1 and HYBRID) gets v1 files, one in the
 * unified hierarchy gets v2 files. Every method returns whether a file was written and throws a
 * {@link CgroupException} naming the file, the value and the OS error when a write fails.
 */
public final class ContainerCgroupWriter {
  /** Unlimited memory: {@code -1} on v1, {@code max} on v2. */
  public static final long UNLIMITED = -1;

  private static final Pattern UNIFIED_FILE = Pattern.compile("[a-z][a-z0-9_]*\\.[a-z0-9_.]+");

  private final ContainerCgroup cgroup;
  private final CgroupWriter writer;
  private final long pageSize;

  /** Writes into {@code cgroup} with {@code writer}, on this host's {@link PageSize#host()}. */
  public ContainerCgroupWriter(ContainerCgroup cgroup, CgroupWriter writer) {
    this(cgroup, writer, PageSize.host());
  }

  /**
   * Writes into {@code cgroup} with {@code writer}; memory files holding a value rounded down to
   * {@code pageSize} are taken to hold the value ({@link PageSize#roundedAsKernelShows}).
   */
  public ContainerCgroupWriter(ContainerCgroup cgroup, CgroupWriter writer, long pageSize) {
    this.cgroup = Objects.requireNonNull(cgroup, "cgroup");
    this.writer = Objects.requireNonNull(writer, "writer");
    if (pageSize <= 0) {
      throw new IllegalArgumentException("invalid page size " + pageSize);
    }
    this.pageSize = pageSize;
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
      return writer.write(limit, limitValue) || wrote;
    } catch (CgroupException e) {
      boolean wrote = writer.write(limit, limitValue);
      return writer.write(period, periodValue) || wrote;
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
      return memoryWrite(file("memory", "memory.limit_in_bytes"), Long.toString(bytes));
    }
    String value = bytes == UNLIMITED ? "max" : Long.toString(bytes);
    return memoryWrite(file("memory", "memory.max"), value);
  }

  /** Writes unless the file holds the value or the value as the kernel stores it, in pages. */
  private boolean memoryWrite(Path file, String value) {
    return PageSize.roundedAsKernelShows(file.getFileName().toString(), value, pageSize)
        .map(rounded -> writer.write(file, value, Set.of(rounded)))
        .orElseGet(() -> writer.write(file, value));
  }

  /**
   * Writes a cgroup v2 file such as {@code memory.high} or {@code memory.swap.max} in the
   * container's unified directory; a memory file that holds the value rounded down to pages, as the
   * kernel shows it, is not written again.
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
    return memoryWrite(dir.resolve(name), value);
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
