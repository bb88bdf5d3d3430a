package io.criresmgr.controllers.blockio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockIoFilesTest {
  private static final DeviceNumber SDA = new DeviceNumber(8, 0);
  private static final DeviceNumber SDB = new DeviceNumber(8, 16);

  private static V2WeightRoute iocost(DeviceNumber d) {
    return V2WeightRoute.IOCOST;
  }

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
        BlockIoFiles.v2(throttled(), current, BlockIoFilesTest::iocost).files());
  }

  @Test
  void noParametersAndNothingToResetWritesNothing() {
    assertEquals(
        Map.of(), BlockIoFiles.v1(BlockIoParameters.none(), V1WeightFiles.PLAIN, Map.of()));
    assertEquals(
        Map.of(),
        BlockIoFiles.v2(
                BlockIoParameters.none(),
                Map.of("io.weight", "default 100\n"),
                BlockIoFilesTest::iocost)
            .files());
  }

  @Test
  void readsCurrentContentsOfExistingFilesAndResetsFromThem(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("io.max"), "8:32 rbps=max wbps=max riops=max wiops=120\n");
    Map<String, String> current = BlockIoFiles.readCurrent(dir, BlockIoFiles.V2_FILES);
    assertEquals(Map.of("io.max", "8:32 rbps=max wbps=max riops=max wiops=120\n"), current);
    assertEquals(
        Map.of("io.max", List.of("8:32 rbps=max wbps=max riops=max wiops=max")),
        BlockIoFiles.v2(BlockIoParameters.none(), current, BlockIoFilesTest::iocost).files());
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

  /** Weights 80 (default), 50 for sda, 200 for sdb; no throttles. */
  private static BlockIoParameters weighted() {
    TreeMap<DeviceNumber, Long> none = new TreeMap<>();
    return new BlockIoParameters(
        OptionalLong.of(80), new TreeMap<>(Map.of(SDA, 50L, SDB, 200L)), none, none, none, none);
  }

  @Test
  void v2DeviceWeightsGoWhereTheirRouteSaysAndTheRestIsSkippedWithTheReason() {
    Map<String, String> current =
        Map.of(
            "io.weight", "default 100\n8:48 300\n",
            "io.bfq.weight", "default 100\n8:16 20\n8:32 40\n",
            "io.max", "");
    Function<DeviceNumber, V2WeightRoute> routes =
        d -> d.equals(SDA) ? V2WeightRoute.BFQ : V2WeightRoute.none("no scheduler for " + d);
    V2Files v2 = BlockIoFiles.v2(weighted(), current, routes);
    assertEquals(
        Map.of(
            "io.weight", List.of("default 708", "8:48 default"),
            "io.bfq.weight", List.of("80", "8:0 50", "8:16 default", "8:32 default")),
        v2.files());
    assertEquals(
        List.of(new V2Files.SkippedWeight(SDB, 200, "no scheduler for 8:16")), v2.skipped());
    assertEquals(
        "weight 200 of device 8:16 (class C) not applied to /cg: no scheduler for 8:16",
        v2.skipped().get(0).describe("C", "/cg"));
  }

  @Test
  void v2WithoutBfqLoadedWritesNoBfqFileAndIoCostDevicesGoToIoWeight() {
    V2Files v2 =
        BlockIoFiles.v2(weighted(), Map.of("io.weight", "default 100\n"), BlockIoFilesTest::iocost);
    assertEquals(Map.of("io.weight", List.of("default 708", "8:0 405", "8:16 1920")), v2.files());
    assertEquals(List.of(), v2.skipped());
  }

  @Test
  void detectsBfqWeightFiles(@TempDir Path dir) throws IOException {
    assertEquals(V1WeightFiles.PLAIN, V1WeightFiles.detect(dir));
    Files.writeString(dir.resolve("blkio.bfq.weight"), "100\n");
    assertEquals(V1WeightFiles.BFQ, V1WeightFiles.detect(dir));
  }
}
