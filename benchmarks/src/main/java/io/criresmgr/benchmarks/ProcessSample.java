package io.criresmgr.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time and resident memory of a process at one moment, from {@code /proc/PID}: the CPU time is
 * utime + stime of {@code /proc/PID/stat} (all threads, as {@link
 * ProcessHandle.Info#totalCpuDuration} reads it, at the kernel's clock-tick resolution), the memory
 * comes from {@code /proc/PID/status}.
 *
 * @param cpu user + system CPU time since the process started
 * @param rssKb VmRSS: resident set, KiB
 * @param anonKb RssAnon: resident anonymous memory (heap, stacks, malloc), KiB
 * @param fileKb RssFile: resident file mappings (the JDK's libraries, the class data archive), KiB
 * @param peakKb VmHWM: the largest resident set so far, KiB
 */
public record ProcessSample(Duration cpu, long rssKb, long anonKb, long fileKb, long peakKb) {
  /** Reads process {@code pid} now; fails clearly if it is gone or not readable. */
  public static ProcessSample of(long pid) {
    Duration cpu =
        ProcessHandle.of(pid)
            .flatMap(p -> p.info().totalCpuDuration())
            .orElseThrow(
                () -> new IllegalStateException("pid " + pid + ": no CPU time (process gone?)"));
    Map<String, Long> status = status(Path.of("/proc", Long.toString(pid), "status"));
    return new ProcessSample(
        cpu,
        field(status, "VmRSS", pid),
        field(status, "RssAnon", pid),
        field(status, "RssFile", pid),
        field(status, "VmHWM", pid));
  }

  /**
   * CPU used between {@code earlier} and this sample, as a percentage of one core over {@code
   * wall}.
   */
  public double cpuPercentSince(ProcessSample earlier, Duration wall) {
    return 100.0 * cpu.minus(earlier.cpu).toNanos() / wall.toNanos();
  }

  /** The kB-valued lines of a {@code /proc/PID/status} file, by name. */
  static Map<String, Long> status(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    Map<String, Long> out = new HashMap<>();
    for (String line : lines) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.endsWith(" kB")) {
        String value = line.substring(colon + 1, line.length() - 3).trim();
        out.put(line.substring(0, colon), Long.parseLong(value));
      }
    }
    return out;
  }

  private static long field(Map<String, Long> status, String name, long pid) {
    Long value = status.get(name);
    if (value == null) {
      throw new IllegalStateException("/proc/" + pid + "/status has no " + name + " line");
    }
    return value;
  }

  /** RSS in MiB with one decimal, with its anonymous and file parts. */
  public String memory() {
    return String.format(
        "VmRSS %.1f MiB (anon %.1f, file %.1f; peak %.1f)",
        rssKb / 1024.0, anonKb / 1024.0, fileKb / 1024.0, peakKb / 1024.0);
  }
}
