package io.criresmgr.controllers.blockio;

import java.util.Objects;

/**
 * A whole-disk block device matched by a class's {@code Devices}.
 *
 * @param number its major:minor
 * @param devNode the resolved device node as seen on the host, e.g. {@code /dev/sda}
 * @param origin why it was included, e.g. {@code from symlink "/dev/disk/by-id/x" from wildcard
 *     "/dev/disk/by-id/*"}; empty when the node was named literally
 */
public record BlockDevice(DeviceNumber number, String devNode, String origin) {
  /** Checks for nulls. */
  public BlockDevice {
    Objects.requireNonNull(number, "number");
    Objects.requireNonNull(devNode, "devNode");
    Objects.requireNonNull(origin, "origin");
  }
}
