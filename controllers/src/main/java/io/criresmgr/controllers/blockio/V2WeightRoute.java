package io.criresmgr.controllers.blockio;

import java.util.Objects;
import java.util.Optional;

/**
 * Where cgroup v2 takes the per-device weight of one device, or why it takes it nowhere. The kernel
 * has two per-device weight files and each refuses devices it does not manage ({@code EOPNOTSUPP}):
 * {@code io.bfq.weight} for devices whose I/O scheduler is BFQ, and {@code io.weight} for devices
 * with iocost enabled (in the root's {@code io.cost.qos}). runc writes per-device weights into
 * {@code io.bfq.weight} only, and silently drops them without BFQ.
 *
 * @param file the file to write the device's weight into, empty when there is none
 * @param reason why there is none (empty when there is a file)
 */
public record V2WeightRoute(Optional<String> file, String reason) {
  /** BFQ: {@code MAJ:MIN <weight>} with the weight unconverted (BFQ takes 1..1000). */
  public static final V2WeightRoute BFQ =
      new V2WeightRoute(Optional.of(BlockIoFiles.V2_BFQ_WEIGHT), "");

  /** iocost: {@code MAJ:MIN <weight>} in {@code io.weight}, converted to 1..10000. */
  public static final V2WeightRoute IOCOST =
      new V2WeightRoute(Optional.of(BlockIoFiles.V2_WEIGHT), "");

  /** Checks that exactly one of file and reason is given. */
  public V2WeightRoute {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(reason, "reason");
    if (file.isPresent() == !reason.isEmpty()) {
      throw new IllegalArgumentException("give either a file or a reason");
    }
  }

  /** No file takes the device's weight, because of {@code reason}. */
  public static V2WeightRoute none(String reason) {
    return new V2WeightRoute(Optional.empty(), reason);
  }

  /** Whether the weight goes into {@code name}. */
  boolean into(String name) {
    return file.filter(name::equals).isPresent();
  }
}
