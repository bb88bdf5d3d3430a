package io.criresmgr.controllers.cpu;

import io.criresmgr.controllers.cpu.LimitFiles.SysfsProblem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Where a host's CPU frequency files are, below {@code <host root>/sys/devices/system/cpu}. */
final class CpuSysfs {
  private static final Pattern CPU_DIR = Pattern.compile("cpu[0-9]+");
  private static final String SCALING_MAX = "cpufreq/scaling_max_freq";

  private final Path cpus;
  private final SysfsIo io;

  /** The files of the host whose {@code /sys} is below {@code hostRoot}. */
  CpuSysfs(Path hostRoot, SysfsIo io) {
    this.cpus = Objects.requireNonNull(hostRoot, "hostRoot").resolve("sys/devices/system/cpu");
    this.io = Objects.requireNonNull(io, "io");
  }

  /** The file access in use. */
  SysfsIo io() {
    return io;
  }

  /** {@code .../cpu<N>/cpufreq/scaling_{min,max}_freq}, bounded by {@code cpuinfo_*_freq}. */
  LimitFiles scaling(int cpu) {
    Path dir = cpus.resolve("cpu" + cpu).resolve("cpufreq");
    return new LimitFiles(
        dir.resolve("scaling_min_freq"),
        dir.resolve("scaling_max_freq"),
        dir.resolve("cpuinfo_min_freq"),
        dir.resolve("cpuinfo_max_freq"));
  }

  /** The directory of the Intel uncore frequency driver. */
  Path uncoreRoot() {
    return cpus.resolve("intel_uncore_frequency");
  }

  /** The uncore directory of {@code die}. */
  Path uncoreDir(Die die) {
    return uncoreRoot().resolve(die.dirName());
  }

  /** {@code .../package_XX_die_YY/{min,max}_freq_khz}, bounded by {@code initial_*_freq_khz}. */
  LimitFiles uncore(Die die) {
    Path dir = uncoreDir(die);
    return new LimitFiles(
        dir.resolve("min_freq_khz"),
        dir.resolve("max_freq_khz"),
        dir.resolve("initial_min_freq_khz"),
        dir.resolve("initial_max_freq_khz"));
  }

  /**
   * The die of {@code cpu}, from its {@code topology/physical_package_id} and {@code die_id} (as
   * the kernel's uncore driver does); a kernel without {@code die_id} has one die per package.
   *
   * @throws SysfsProblem naming the file if the package cannot be read
   */
  Die die(int cpu) {
    Path topology = cpus.resolve("cpu" + cpu).resolve("topology");
    int pkg = (int) LimitFiles.read(io, topology.resolve("physical_package_id"));
    Path dieFile = topology.resolve("die_id");
    return Files.exists(dieFile)
        ? new Die(pkg, (int) LimitFiles.read(io, dieFile))
        : new Die(pkg, 0);
  }

  /** Whether some CPU has cpufreq limits ({@code cpufreq/scaling_max_freq}): a driver is loaded. */
  boolean hasCpufreq() {
    try (Stream<Path> dirs = Files.list(cpus)) {
      return dirs.anyMatch(
          d ->
              CPU_DIR.matcher(d.getFileName().toString()).matches()
                  && Files.exists(d.resolve(SCALING_MAX)));
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /** The files whose absence means no cpufreq; for messages. */
  Path cpufreqPattern() {
    return cpus.resolve("cpu*").resolve(SCALING_MAX);
  }
}
