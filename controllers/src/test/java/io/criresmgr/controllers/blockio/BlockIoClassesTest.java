package io.criresmgr.controllers.blockio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockIoClassesTest {
  @TempDir Path root;
  private ResolvedClasses classes;

  @BeforeEach
  void resolveSample() {
    new FakeBlockDevices(root)
        .disk("sda", "8:0", "mq-deadline kyber [bfq] none")
        .disk("sdb", "8:16", "[mq-deadline] none")
        .disk("vda", "252:0", "[bfq]")
        .symlink("/dev/disk/by-id/ata-VendorSSD", "../../sdb");
    classes =
        BlockIoClasses.resolve(
            BlockIoConfig.parse(BlockIoConfigTest.json(BlockIoConfigTest.SAMPLE)),
            new BlockDeviceResolver(root));
  }

  @Test
  void laterEntriesOverrideEarlierOnesForSharedDevices() {
    BlockIoParameters low = classes.classes().get("LowPrioThrottled");
    Map<String, List<String>> v1 = BlockIoFiles.v1(low, V1WeightFiles.PLAIN, Map.of());
    assertEquals(
        Map.of(
            "blkio.weight", List.of("80"),
            "blkio.weight_device", List.of("8:0 50", "8:16 50", "252:0 50"),
            "blkio.throttle.read_bps_device",
                List.of("8:0 50000000", "8:16 100000000", "252:0 50000000"),
            "blkio.throttle.write_bps_device",
                List.of("8:0 10000000", "8:16 40000000", "252:0 10000000"),
            "blkio.throttle.read_iops_device", List.of("8:0 10000", "8:16 10000", "252:0 10000"),
            "blkio.throttle.write_iops_device", List.of("8:0 5000", "8:16 5000", "252:0 5000")),
        v1);
    assertEquals(
        List.of(
            "blkio.weight",
            "blkio.weight_device",
            "blkio.throttle.read_bps_device",
            "blkio.throttle.write_bps_device",
            "blkio.throttle.read_iops_device",
            "blkio.throttle.write_iops_device"),
        List.copyOf(v1.keySet()));
  }

  private static V2WeightRoute iocost(DeviceNumber d) {
    return V2WeightRoute.IOCOST;
  }

  @Test
  void v2FilesOfTheSample() {
    assertEquals(
        Map.of(
            "io.weight", List.of("default 708", "8:0 405", "8:16 405", "252:0 405"),
            "io.max",
                List.of(
                    "8:0 rbps=50000000 wbps=10000000 riops=10000 wiops=5000",
                    "8:16 rbps=100000000 wbps=40000000 riops=10000 wiops=5000",
                    "252:0 rbps=50000000 wbps=10000000 riops=10000 wiops=5000")),
        BlockIoFiles.v2(
                classes.classes().get("LowPrioThrottled"), Map.of(), BlockIoClassesTest::iocost)
            .files());
    assertEquals(
        Map.of("io.weight", List.of("default 3940")),
        BlockIoFiles.v2(
                classes.classes().get("HighPrioFullSpeed"), Map.of(), BlockIoClassesTest::iocost)
            .files());
  }

  @Test
  void warnsAboutUnmatchedGlobsAndWeightsTheSchedulerIgnores() {
    assertEquals(
        List.of(
            "class LowPrioThrottled: weight has no effect on device \"/dev/sdb\" due to"
                + " incompatible I/O scheduler \"mq-deadline\" (bfq or cfq required)",
            "class LowPrioThrottled: weight has no effect on device \"/dev/sdb\" due to"
                + " incompatible I/O scheduler \"mq-deadline\" (bfq or cfq required)"),
        classes.warnings());
  }

  @Test
  void entriesMatchingNoDeviceAreIgnoredWithWarnings() {
    ResolvedClasses r =
        BlockIoClasses.resolve(
            BlockIoConfig.parse(
                BlockIoConfigTest.json(
                    "{'Classes': {'c': [{'Weight': 200}, {'Devices': ['/dev/xvd*'],"
                        + " 'ThrottleReadBps': '1M'}]}}")),
            new BlockDeviceResolver(root));
    assertEquals(
        Map.of("blkio.bfq.weight", List.of("200")),
        BlockIoFiles.v1(r.classes().get("c"), V1WeightFiles.BFQ, Map.of()));
    assertEquals(
        List.of(
            "class c: device wildcard \"/dev/xvd*\" does not match any device nodes",
            "class c: no matches on any of Devices [/dev/xvd*], parameters ignored"),
        r.warnings());
  }
}
