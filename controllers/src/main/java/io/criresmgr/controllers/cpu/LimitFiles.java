package io.criresmgr.controllers.cpu;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sysfs files of one min/max frequency limit pair (a CPU's cpufreq policy or a die's uncore),
 * with the hardware bounds the kernel clamps the limits to.
 *
 * @param min the writable lower limit
 * @param max the writable upper limit
 * @param hardwareMin the read-only lowest possible value (optional file)
 * @param hardwareMax the read-only highest possible value (optional file)
 */
record LimitFiles(Path min, Path max, Path hardwareMin, Path hardwareMax) {
  private static final Logger LOG = LoggerFactory.getLogger(LimitFiles.class);

  /** Checks for nulls. */
  LimitFiles {
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(max, "max");
    Objects.requireNonNull(hardwareMin, "hardwareMin");
    Objects.requireNonNull(hardwareMax, "hardwareMax");
  }

  /**
   * Writes {@code target} (clamped to the hardware bounds, as the kernel would) where it differs
   * from the current value. The kernel refuses a minimum above the current maximum and a maximum
   * below the current minimum, so when the new maximum is below the current minimum (lowering) the
   * minimum goes first, otherwise (raising, widening, narrowing) the maximum goes first; with both
   * limits set and {@code min <= max} this order never passes through an inconsistent pair. Stops
   * at the first failure, adding it to {@code problems}.
   *
   * @return the number of files written
   */
  int apply(SysfsIo io, Limits target, List<String> problems) {
    if (!target.any()) {
      return 0;
    }
    try {
      Limits wanted = clamp(io, target);
      long currentMin = read(io, min);
      long currentMax = read(io, max);
      boolean minFirst = wanted.max() != 0 && wanted.max() < currentMin;
      return minFirst
          ? write(io, min, wanted.min(), currentMin) + write(io, max, wanted.max(), currentMax)
          : write(io, max, wanted.max(), currentMax) + write(io, min, wanted.min(), currentMin);
    } catch (SysfsProblem e) {
      problems.add(e.getMessage());
      return 0;
    }
  }

  private Limits clamp(SysfsIo io, Limits target) {
    long low = bound(io, hardwareMin).orElse(0);
    long high = bound(io, hardwareMax).orElse(Long.MAX_VALUE);
    return new Limits(clamp(target.min(), low, high), clamp(target.max(), low, high));
  }

  private static long clamp(long value, long low, long high) {
    return value == 0 || low > high ? value : Math.max(low, Math.min(high, value));
  }

  /** An optional bound: unreadable means unknown, the kernel then decides. */
  private static OptionalLong bound(SysfsIo io, Path file) {
    try {
      return OptionalLong.of(read(io, file));
    } catch (SysfsProblem e) {
      return OptionalLong.empty();
    }
  }

  private static int write(SysfsIo io, Path file, long value, long current) {
    if (value == 0 || value == current) {
      return 0;
    }
    try {
      io.write(file, Long.toString(value));
    } catch (IOException e) {
      throw new SysfsProblem("cannot write " + value + " to " + file + ": " + osError(e));
    }
    LOG.debug("wrote {} to {} (was {})", value, file, current);
    return 1;
  }

  /** The number in {@code file}. */
  static long read(SysfsIo io, Path file) {
    String text;
    try {
      text = io.read(file).strip();
    } catch (IOException e) {
      throw new SysfsProblem("cannot read " + file + ": " + osError(e));
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new SysfsProblem(file + ": unexpected content \"" + text + "\", expected a number");
    }
  }

  /** The operating system's reason for {@code e}, e.g. {@code Invalid argument}. */
  static String osError(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** A file that could not be read or written; the message names it, the value and the error. */
  static final class SysfsProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SysfsProblem(String message) {
      super(message);
    }
  }
}
