package io.criresmgr.controllers.blockio;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link BlockIoFiles#v2} puts into a container's cgroup v2 files.
 *
 * @param files file name to the lines to write, each one {@code write(2)}, in order
 * @param skipped the per-device weights no file of this kernel takes for their device
 */
public record V2Files(Map<String, List<String>> files, List<SkippedWeight> skipped) {
  /** Copies both, keeping the order of the files. */
  public V2Files {
    files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
    skipped = List.copyOf(skipped);
  }

  /**
   * A per-device weight that is not written.
   *
   * @param device the device
   * @param weight the class's weight for it (10..1000)
   * @param reason why no file takes it, see {@link V2WeightRoutes}
   */
  public record SkippedWeight(DeviceNumber device, long weight, String reason) {
    /** Checks for nulls. */
    public SkippedWeight {
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(reason, "reason");
    }

    /** The warning: {@code weight 50 of device 8:0 (class C) not applied to DIR: REASON}. */
    public String describe(String className, Object cgroupDir) {
      return "weight "
          + weight
          + " of device "
          + device
          + " (class "
          + className
          + ") not applied to "
          + cgroupDir
          + ": "
          + reason;
    }
  }
}
