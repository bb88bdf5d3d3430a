package io.criresmgr.controllers.blockio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockIoFilesTest {
  private static final DeviceNumber SDA = new DeviceNumber(8, 0);

  private static BlockIoParameters throttled() {
    TreeMap<DeviceNumber, Long> none = new TreeMap<>();
    return new BlockIoParameters(
        OptionalLong.empty(),
        new TreeMap<>(Map.of(SDA, 50L)),
        new TreeMap<>(Map.of(SDA, 1_000_000L)),
        none,
        none,
        new TreeMap<>(Map.of(SDA, 0L)));
  }

  @Test
  void v2WeightIsRuncsLinearConversion() {
    assertEquals(1, BlockIoFiles.v2Weight(10));
    assertEquals(405, BlockIoFiles.v2Weight(50));
    assertEquals(910, BlockIoFiles.v2Weight(100));
    assertEquals(5455, BlockIoFiles.v2Weight(550));
    assertEquals(10000, BlockIoFiles.v2Weight(1000));
  }

  @Test
  void v1ResetsDeviceSettingsTheClassDoesNotHave() {
    Map<String, String> current =
        Map.of(
            "blkio.bfq.weight_device", "default 100\n8:48 300\n",
            "blkio.throttle.read_bps_device", "8:0 1\n8:32 2097152\n",
            "blkio.throttle.write_iops_device", "8:32 120\n");
    assertEquals(
        Map.of(
            "blkio.bfq.weight_device", List.of("8:0 50", "8:48 0"),
            "blkio.throttle.read_bps_device", List.of("8:0 1000000", "8:32 0"),
            "blkio.throttle.write_iops_device", List.of("8:0 0", "8:32 0")),
        BlockIoFiles.v1(throttled(), V1WeightFiles.BFQ, current));
  }

  @Test
  void v2WritesAllFourLimitsAndResetsOtherDevices() {
    Map<String, String> current =
        Map.of(
            "io.weight",
            "default 100\n8:48 300\n",
            "io.max",
            "8:0 rbps=5 wbps=max riops=max wiops=7\n8:32 rbps=2097152 wbps=max"
                + " riops=max wiops=120\n");
    assertEquals(
        Map.of(
            "io.weight", List.of("8:0 405", "8:48 default"),
            "io.max",
                List.of(
                    "8:0 rbps=1000000 wbps=max riops=max wiops=max",
                    "8:32 rbps=max wbps=max riops=max wiops=max")),
        BlockIoFiles.v2(throttled(), current));
  }

  @Test
  void noParametersAndNothingToResetWritesNothing() {
    assertEquals(
        Map.of(), BlockIoFiles.v1(BlockIoParameters.none(), V1WeightFiles.PLAIN, Map.of()));
    assertEquals(
        Map.of(), BlockIoFiles.v2(BlockIoParameters.none(), Map.of("io.weight", "default 100\n")));
  }

  @Test
  void readsCurrentContentsOfExistingFilesAndResetsFromThem(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("io.max"), "8:32 rbps=max wbps=max riops=max wiops=120\n");
    Map<String, String> current = BlockIoFiles.readCurrent(dir, BlockIoFiles.V2_FILES);
    assertEquals(Map.of("io.max", "8:32 rbps=max wbps=max riops=max wiops=120\n"), current);
    assertEquals(
        Map.of("io.max", List.of("8:32 rbps=max wbps=max riops=max wiops=max")),
        BlockIoFiles.v2(BlockIoParameters.none(), current));
    assertEquals(
        List.of(
            "blkio.weight",
            "blkio.weight_device",
            "blkio.throttle.read_bps_device",
            "blkio.throttle.write_bps_device",
            "blkio.throttle.read_iops_device",
            "blkio.throttle.write_iops_device"),
        BlockIoFiles.v1Files(V1WeightFiles.PLAIN));
  }

  @Test
  void detectsBfqWeightFiles(@TempDir Path dir) throws IOException {
    assertEquals(V1WeightFiles.PLAIN, V1WeightFiles.detect(dir));
    Files.writeString(dir.resolve("blkio.bfq.weight"), "100\n");
    assertEquals(V1WeightFiles.BFQ, V1WeightFiles.detect(dir));
  }
}
