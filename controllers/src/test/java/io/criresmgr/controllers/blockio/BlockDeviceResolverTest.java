package io.criresmgr.controllers.blockio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockDeviceResolverTest {
  @TempDir Path root;
  private BlockDeviceResolver resolver;

  @BeforeEach
  void tree() {
    new FakeBlockDevices(root)
        .disk("sda", "8:0", "mq-deadline kyber [bfq] none")
        .partition("sda1", "8:1")
        .disk("sdb", "8:16", "[mq-deadline] none")
        .disk("vda", "252:0", "none")
        .disk("nvme0n1", "259:0", "[none] mq-deadline")
        .partition("nvme0n1p1", "259:1")
        .other("null")
        .symlink("/dev/disk/by-id/ata-VendorSSD", "../../sdb")
        .symlink("/dev/disk/by-id/ata-VendorSSD-part1", "../../sda1")
        .symlink("/dev/disk/by-id/abs-link", "/dev/vda")
        .symlink("/dev/disk/by-id/dangling", "../../sdz");
    resolver = new BlockDeviceResolver(root);
  }

  @AfterEach
  void removeAbsoluteLink() throws IOException {
    // JUnit warns about links that point outside @TempDir when it deletes them
    Files.delete(root.resolve("dev/disk/by-id/abs-link"));
  }

  private static BlockDevice dev(int major, int minor, String node, String origin) {
    return new BlockDevice(new DeviceNumber(major, minor), node, origin);
  }

  @Test
  void characterClassGlobMatchesWholeDisksAndSkipsNothingElse() {
    DeviceResolution r = resolver.resolve(List.of("/dev/sd[a-z]"));
    assertEquals(
        List.of(
            dev(8, 0, "/dev/sda", "from wildcard \"/dev/sd[a-z]\""),
            dev(8, 16, "/dev/sdb", "from wildcard \"/dev/sd[a-z]\"")),
        r.devices());
    assertEquals(List.of(), r.warnings());
  }

  @Test
  void starGlobSkipsPartitionsWithAWarning() {
    DeviceResolution r = resolver.resolve(List.of("/dev/sd*", "/dev/vd*"));
    assertEquals(
        List.of(
            dev(8, 0, "/dev/sda", "from wildcard \"/dev/sd*\""),
            dev(8, 16, "/dev/sdb", "from wildcard \"/dev/sd*\""),
            dev(252, 0, "/dev/vda", "from wildcard \"/dev/vd*\"")),
        r.devices());
    assertEquals(
        List.of(
            "skipping \"/dev/sda1\": cannot weight/throttle partitions (origin: from wildcard"
                + " \"/dev/sd*\")"),
        r.warnings());
  }

  @Test
  void partitionsAreFoundFromSysfsNotFromMinorNumbers() {
    DeviceResolution r = resolver.resolve(List.of("/dev/nvme0n1", "/dev/nvme0n1p1"));
    assertEquals(List.of(dev(259, 0, "/dev/nvme0n1", "")), r.devices());
    assertEquals(
        List.of("skipping \"/dev/nvme0n1p1\": cannot weight/throttle partitions"), r.warnings());
  }

  @Test
  void symlinksAreFollowedAndAbsoluteTargetsStayUnderTheHostRoot() {
    DeviceResolution r =
        resolver.resolve(List.of("/dev/disk/by-id/*SSD*", "/dev/disk/by-id/abs-link"));
    assertEquals(
        List.of(
            dev(
                8,
                16,
                "/dev/sdb",
                "from symlink \"/dev/disk/by-id/ata-VendorSSD\" from wildcard"
                    + " \"/dev/disk/by-id/*SSD*\""),
            dev(252, 0, "/dev/vda", "from symlink \"/dev/disk/by-id/abs-link\"")),
        r.devices());
    assertEquals(
        List.of(
            "skipping \"/dev/sda1\": cannot weight/throttle partitions (origin: from symlink"
                + " \"/dev/disk/by-id/ata-VendorSSD-part1\" from wildcard"
                + " \"/dev/disk/by-id/*SSD*\")"),
        r.warnings());
  }

  @Test
  void unmatchedGlobsNonBlockDevicesAndDanglingLinksAreWarnings() {
    DeviceResolution r =
        resolver.resolve(List.of("/dev/xvd*", "/dev/null", "/dev/disk/by-id/dangling"));
    assertEquals(List.of(), r.devices());
    assertEquals(
        List.of(
            "device wildcard \"/dev/xvd*\" does not match any device nodes",
            "skipping \"/dev/null\": not a block device",
            "skipping \"/dev/disk/by-id/dangling\": dangling symlink to \"/dev/sdz\""),
        r.warnings());
  }

  @Test
  void aDeviceMatchedTwiceIsListedOnce() {
    DeviceResolution r = resolver.resolve(List.of("/dev/sdb", "/dev/disk/by-id/ata-VendorSSD"));
    assertEquals(List.of(dev(8, 16, "/dev/sdb", "")), r.devices());
  }

  @Test
  void negatedClassAndQuestionMark() {
    assertEquals(
        List.of(dev(8, 16, "/dev/sdb", "from wildcard \"/dev/sd[^a]\"")),
        resolver.resolve(List.of("/dev/sd[^a]")).devices());
    assertEquals(
        List.of(dev(252, 0, "/dev/vda", "from wildcard \"/dev/v?a\"")),
        resolver.resolve(List.of("/dev/v?a")).devices());
  }

  @Test
  void activeSchedulerIsTheBracketedOrOnlyEntry() {
    assertEquals(Optional.of("bfq"), resolver.scheduler(dev(8, 0, "/dev/sda", "")));
    assertEquals(Optional.of("none"), resolver.scheduler(dev(252, 0, "/dev/vda", "")));
    assertEquals(Optional.empty(), resolver.scheduler(dev(1, 3, "/dev/null", "")));
  }
}
