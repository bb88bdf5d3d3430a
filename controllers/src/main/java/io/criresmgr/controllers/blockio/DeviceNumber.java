package io.criresmgr.controllers.blockio;

import java.util.Comparator;

/** A block device's {@code major:minor} number, ordered numerically. */
public record DeviceNumber(int major, int minor) implements Comparable<DeviceNumber> {
  private static final Comparator<DeviceNumber> ORDER =
      Comparator.comparingInt(DeviceNumber::major).thenComparingInt(DeviceNumber::minor);

  /** Validates that both numbers are not negative. */
  public DeviceNumber {
    if (major < 0 || minor < 0) {
      throw new IllegalArgumentException("negative device number " + major + ":" + minor);
    }
  }

  /**
   * Parses {@code MAJ:MIN} as found in sysfs {@code dev} files and cgroup files.
   *
   * @throws IllegalArgumentException if {@code text} is not two decimal numbers joined by a colon
   */
  public static DeviceNumber parse(String text) {
    String[] parts = text.trim().split(":", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException(
          "invalid device number \"" + text + "\": expected MAJ:MIN");
    }
    try {
      return new DeviceNumber(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "invalid device number \"" + text + "\": expected MAJ:MIN");
    }
  }

  @Override
  public int compareTo(DeviceNumber other) {
    return ORDER.compare(this, other);
  }

  /** {@code MAJ:MIN}, the form cgroup files use. */
  @Override
  public String toString() {
    return major + ":" + minor;
  }
}
