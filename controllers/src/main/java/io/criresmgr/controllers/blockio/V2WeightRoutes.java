package io.criresmgr.controllers.blockio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Finds the {@link V2WeightRoute} of a device on this host, when a container's class is applied (so
 * a scheduler changed since the configuration counts): its I/O scheduler from {@code
 * /sys/dev/block/MAJ:MIN/queue/scheduler} under the host root, iocost from the {@code io.cost.qos}
 * file of the cgroup v2 root, and whether the container's {@code io.bfq.weight} takes device lines
 * at all (Linux 5.4 and later show {@code default N} there, older kernels only {@code N}, as runc
 * checks).
 */
public final class V2WeightRoutes {
  private final Path hostRoot;
  private final Path cgroupRoot;

  /**
   * @param hostRoot the host's root directory ({@code /} in production)
   * @param cgroupRoot the cgroup v2 hierarchy's root directory
   */
  public V2WeightRoutes(Path hostRoot, Path cgroupRoot) {
    this.hostRoot = Objects.requireNonNull(hostRoot, "hostRoot");
    this.cgroupRoot = Objects.requireNonNull(cgroupRoot, "cgroupRoot");
  }

  /**
   * Where {@code device}'s weight goes for a container whose {@code io.bfq.weight} holds {@code
   * bfqWeight} (null: the cgroup has no such file, the BFQ module is not loaded).
   */
  public V2WeightRoute route(DeviceNumber device, @Nullable String bfqWeight) {
    String scheduler = scheduler(device);
    if (scheduler.equals("bfq")) {
      if (bfqWeight == null) {
        return V2WeightRoute.none("its I/O scheduler is bfq but the cgroup has no io.bfq.weight");
      }
      if (!bfqWeight.strip().startsWith("default")) {
        return V2WeightRoute.none(
            "its I/O scheduler is bfq but this kernel's io.bfq.weight takes no device weights"
                + " (Linux 5.4 or later needed)");
      }
      return V2WeightRoute.BFQ;
    }
    if (ioCostEnabled(device)) {
      return V2WeightRoute.IOCOST;
    }
    return V2WeightRoute.none(
        "the kernel takes device weights only in io.bfq.weight when the device's I/O scheduler is"
            + " bfq (it is "
            + scheduler
            + ") or in io.weight when iocost is enabled for it (it is not in "
            + cgroupRoot.resolve("io.cost.qos")
            + ")");
  }

  private String scheduler(DeviceNumber device) {
    Path file = hostRoot.resolve("sys/dev/block/" + device + "/queue/scheduler");
    return BlockDeviceResolver.activeScheduler(file).orElse("unknown");
  }

  /** iocost is on for a device with an {@code enable=1} line in the root's io.cost.qos. */
  private boolean ioCostEnabled(DeviceNumber device) {
    Path file = cgroupRoot.resolve("io.cost.qos");
    if (!Files.isRegularFile(file)) {
      return false;
    }
    try {
      return Files.readAllLines(file).stream()
          .map(l -> l.trim().split("\\s+"))
          .anyMatch(f -> f[0].equals(device.toString()) && List.of(f).contains("enable=1"));
    } catch (IOException e) {
      return false; // unreadable: as if off, the warning then names the file
    }
  }
}
