package io.criresmgr.controllers.blockio;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which cgroup v1 weight files a blkio cgroup has: BFQ's {@code blkio.bfq.weight*} (kernels with
 * blk-mq) or the CFQ-era {@code blkio.weight*}. cri-resmgr tries the BFQ names first.
 */
public enum V1WeightFiles {
  /** {@code blkio.bfq.weight} and {@code blkio.bfq.weight_device}. */
  BFQ("blkio.bfq.weight", "blkio.bfq.weight_device"),
  /** {@code blkio.weight} and {@code blkio.weight_device}. */
  PLAIN("blkio.weight", "blkio.weight_device");

  private final String weight;
  private final String weightDevice;

  V1WeightFiles(String weight, String weightDevice) {
    this.weight = weight;
    this.weightDevice = weightDevice;
  }

  /** The default weight file name. */
  public String weight() {
    return weight;
  }

  /** The per-device weight file name. */
  public String weightDevice() {
    return weightDevice;
  }

  /** {@link #BFQ} when {@code cgroupDir} has {@code blkio.bfq.weight}, else {@link #PLAIN}. */
  public static V1WeightFiles detect(Path cgroupDir) {
    return Files.exists(cgroupDir.resolve(BFQ.weight)) ? BFQ : PLAIN;
  }
}
