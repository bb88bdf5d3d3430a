package io.criresmgr.controllers.blockio;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The effective parameters of one class for the devices found on this host (cri-resmgr's OCI {@code
 * LinuxBlockIO} of the class). Weights are on the cgroup v1 scale 10..1000.
 *
 * @param weight the class's default weight, if set
 * @param weightDevice per-device weights
 * @param readBps per-device read bytes per second limits
 * @param writeBps per-device write bytes per second limits
 * @param readIops per-device read operations per second limits
 * @param writeIops per-device write operations per second limits
 */
public record BlockIoParameters(
    OptionalLong weight,
    SortedMap<DeviceNumber, Long> weightDevice,
    SortedMap<DeviceNumber, Long> readBps,
    SortedMap<DeviceNumber, Long> writeBps,
    SortedMap<DeviceNumber, Long> readIops,
    SortedMap<DeviceNumber, Long> writeIops) {
  /** Copies the maps into immutable sorted maps. */
  public BlockIoParameters {
    Objects.requireNonNull(weight, "weight");
    weightDevice = copy(weightDevice);
    readBps = copy(readBps);
    writeBps = copy(writeBps);
    readIops = copy(readIops);
    writeIops = copy(writeIops);
  }

  /** Nothing set: writing it changes nothing (but resets what another class had set). */
  public static BlockIoParameters none() {
    TreeMap<DeviceNumber, Long> e = new TreeMap<>();
    return new BlockIoParameters(OptionalLong.empty(), e, e, e, e, e);
  }

  private static SortedMap<DeviceNumber, Long> copy(Map<DeviceNumber, Long> m) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(m));
  }
}
