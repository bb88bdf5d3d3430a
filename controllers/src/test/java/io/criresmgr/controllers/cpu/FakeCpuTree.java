package io.criresmgr.controllers.cpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A generated {@code /sys/devices/system/cpu} below a host root: CPUs with cpufreq limits (hardware
 * range 800000..3600000 kHz) and topology, and Intel uncore directories (800000..2400000 kHz).
 */
final class FakeCpuTree {
  static final long HW_MIN = 800_000;
  static final long HW_MAX = 3_600_000;
  static final long UNCORE_HW_MIN = 800_000;
  static final long UNCORE_HW_MAX = 2_400_000;

  private final Path root;
  private final Path cpus;

  FakeCpuTree(Path root) {
    this.root = root;
    this.cpus = root.resolve("sys/devices/system/cpu");
  }

  Path root() {
    return root;
  }

  /** CPU {@code cpu} on package {@code pkg}, die {@code die}, limits {@code min..max}. */
  FakeCpuTree cpu(int cpu, int pkg, int die, long min, long max) {
    Path dir = cpus.resolve("cpu" + cpu);
    write(dir.resolve("cpufreq/scaling_min_freq"), min);
    write(dir.resolve("cpufreq/scaling_max_freq"), max);
    write(dir.resolve("cpufreq/cpuinfo_min_freq"), HW_MIN);
    write(dir.resolve("cpufreq/cpuinfo_max_freq"), HW_MAX);
    write(dir.resolve("topology/physical_package_id"), pkg);
    write(dir.resolve("topology/die_id"), die);
    return this;
  }

  /** CPUs {@code from..to} of package {@code pkg}, die {@code die}, at the hardware range. */
  FakeCpuTree cpus(int from, int to, int pkg, int die) {
    for (int cpu = from; cpu <= to; cpu++) {
      cpu(cpu, pkg, die, HW_MIN, HW_MAX);
    }
    return this;
  }

  /** The uncore directory of package {@code pkg}, die {@code die}, at its hardware range. */
  FakeCpuTree withUncore(int pkg, int die) {
    Path dir = uncoreDir(pkg, die);
    write(dir.resolve("min_freq_khz"), UNCORE_HW_MIN);
    write(dir.resolve("max_freq_khz"), UNCORE_HW_MAX);
    write(dir.resolve("initial_min_freq_khz"), UNCORE_HW_MIN);
    write(dir.resolve("initial_max_freq_khz"), UNCORE_HW_MAX);
    return this;
  }

  Path uncoreDir(int pkg, int die) {
    return cpus.resolve(String.format("intel_uncore_frequency/package_%02d_die_%02d", pkg, die));
  }

  Path cpufreq(int cpu, String file) {
    return cpus.resolve("cpu" + cpu).resolve("cpufreq").resolve(file);
  }

  Path topology(int cpu, String file) {
    return cpus.resolve("cpu" + cpu).resolve("topology").resolve(file);
  }

  /** {@code scaling_min_freq..scaling_max_freq} of {@code cpu}, e.g. {@code 800000..3600000}. */
  String scaling(int cpu) {
    return read(cpufreq(cpu, "scaling_min_freq")) + ".." + read(cpufreq(cpu, "scaling_max_freq"));
  }

  /** {@code min_freq_khz..max_freq_khz} of the die. */
  String uncore(int pkg, int die) {
    Path dir = uncoreDir(pkg, die);
    return read(dir.resolve("min_freq_khz")) + ".." + read(dir.resolve("max_freq_khz"));
  }

  static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void write(Path file, long value) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, value + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
