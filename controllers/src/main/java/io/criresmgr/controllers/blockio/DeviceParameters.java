package io.criresmgr.controllers.blockio;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One entry of a class: parameters for a set of devices, or (without devices) the class's default
 * weight.
 *
 * @param devices device paths or globs, e.g. {@code /dev/sd[a-z]}; empty for the default weight
 * @param weight I/O scheduler weight 10..1000 (cgroup v1 scale)
 * @param throttleReadBps read bytes per second
 * @param throttleWriteBps write bytes per second
 * @param throttleReadIops read operations per second
 * @param throttleWriteIops write operations per second
 */
public record DeviceParameters(
    List<String> devices,
    OptionalLong weight,
    OptionalLong throttleReadBps,
    OptionalLong throttleWriteBps,
    OptionalLong throttleReadIops,
    OptionalLong throttleWriteIops) {
  /** Smallest cgroup v1 weight. */
  public static final long MIN_WEIGHT = 10;

  /** Largest cgroup v1 weight. */
  public static final long MAX_WEIGHT = 1000;

  /** Validates ranges; throttling needs devices, as in cri-resmgr. */
  public DeviceParameters {
    devices = List.copyOf(devices);
    Objects.requireNonNull(weight, "weight");
    weight.ifPresent(
        w -> {
          if (w < MIN_WEIGHT || w > MAX_WEIGHT) {
            throw new IllegalArgumentException("weight " + w + " is not in 10..1000");
          }
        });
    for (OptionalLong t :
        List.of(throttleReadBps, throttleWriteBps, throttleReadIops, throttleWriteIops)) {
      if (t.isPresent() && t.getAsLong() < 0) {
        throw new IllegalArgumentException("negative throttling value " + t.getAsLong());
      }
    }
    boolean throttling =
        throttleReadBps.isPresent()
            || throttleWriteBps.isPresent()
            || throttleReadIops.isPresent()
            || throttleWriteIops.isPresent();
    if (devices.isEmpty() && throttling) {
      throw new IllegalArgumentException("throttling without Devices");
    }
  }

  /** Whether any throttling value is set. */
  public boolean throttles() {
    return throttleReadBps.isPresent()
        || throttleWriteBps.isPresent()
        || throttleReadIops.isPresent()
        || throttleWriteIops.isPresent();
  }
}
