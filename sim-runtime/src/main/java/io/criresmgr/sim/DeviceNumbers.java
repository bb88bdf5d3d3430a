package io.criresmgr.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The numbers of a container's devices, as containerd finds them for the OCI spec: a device node by
 * its own number; a fake device (a link into a fake sysfs, {@code
 * io.criresmgr.policy.sysfs.FakeDevices}) by the {@code dev} file of the sysfs directory it leads
 * to, a character device.
 */
final class DeviceNumbers {
  private static final int S_IFMT = 0170000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFBLK = 0060000;

  /**
   * A device number.
   *
   * @param type {@code c} or {@code b}
   */
  record DeviceNumber(String type, long major, long minor) {}

  private DeviceNumbers() {}

  /** The number of the device at {@code hostPath} below {@code hostRoot}; empty if none. */
  static Optional<DeviceNumber> of(Path hostRoot, String hostPath) {
    Path file = hostRoot.resolve(hostPath.replaceFirst("^/+", ""));
    try {
      int type = (Integer) Files.getAttribute(file, "unix:mode") & S_IFMT;
      if (type == S_IFCHR || type == S_IFBLK) {
        long dev = (Long) Files.getAttribute(file, "unix:rdev");
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
        long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
        return Optional.of(new DeviceNumber(type == S_IFCHR ? "c" : "b", major, minor));
      }
      Path dev = file.toRealPath().resolve("dev");
      if (!Files.isRegularFile(dev)) {
        return Optional.empty();
      }
      String text = Files.readString(dev).strip();
      int colon = text.indexOf(':');
      if (colon < 0) {
        return Optional.empty();
      }
      return Optional.of(
          new DeviceNumber(
              "c",
              Long.parseLong(text.substring(0, colon)),
              Long.parseLong(text.substring(colon + 1))));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // containerd would refuse the create; the simulation goes on
    }
  }
}
