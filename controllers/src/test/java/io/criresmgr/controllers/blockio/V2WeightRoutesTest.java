package io.criresmgr.controllers.blockio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class V2WeightRoutesTest {
  private static final DeviceNumber SDA = new DeviceNumber(8, 0);
  private static final DeviceNumber VDA = new DeviceNumber(254, 0);

  @TempDir Path dir;
  private Path cgroupRoot;
  private V2WeightRoutes routes;

  @BeforeEach
  void host() throws IOException {
    Path host = dir.resolve("host");
    new FakeBlockDevices(host).disk("sda", "8:0", "mq-deadline kyber [bfq] none");
    new FakeBlockDevices(host).disk("vda", "254:0", "[none] mq-deadline");
    cgroupRoot = Files.createDirectories(dir.resolve("cg"));
    routes = new V2WeightRoutes(host, cgroupRoot);
  }

  @Test
  void aBfqDeviceTakesItsWeightInIoBfqWeightOfAKernelThatTakesDeviceLines() {
    assertEquals(V2WeightRoute.BFQ, routes.route(SDA, "default 100\n"));
    assertEquals(
        V2WeightRoute.none("its I/O scheduler is bfq but the cgroup has no io.bfq.weight"),
        routes.route(SDA, null));
    assertEquals(
        V2WeightRoute.none(
            "its I/O scheduler is bfq but this kernel's io.bfq.weight takes no device weights"
                + " (Linux 5.4 or later needed)"),
        routes.route(SDA, "100\n"));
  }

  @Test
  void aDeviceWithIoCostEnabledTakesItsWeightInIoWeight() throws IOException {
    Files.writeString(
        cgroupRoot.resolve("io.cost.qos"),
        "8:16 enable=1 ctrl=auto rpct=0.00 rlat=250000 wpct=0.00 wlat=250000 min=1.00 max=100.00\n"
            + "254:0 enable=1 ctrl=auto rpct=0.00 rlat=250000 wpct=0.00 wlat=250000 min=1.00"
            + " max=100.00\n");
    assertEquals(V2WeightRoute.IOCOST, routes.route(VDA, "default 100\n"));
  }

  @Test
  void otherwiseNoFileTakesItAndTheReasonNamesSchedulerAndIoCost() throws IOException {
    Files.writeString(cgroupRoot.resolve("io.cost.qos"), "254:0 enable=0 ctrl=auto\n");
    String reason =
        "the kernel takes device weights only in io.bfq.weight when the device's I/O scheduler"
            + " is bfq (it is %s) or in io.weight when iocost is enabled for it (it is not in "
            + cgroupRoot.resolve("io.cost.qos")
            + ")";
    assertEquals(V2WeightRoute.none(reason.formatted("none")), routes.route(VDA, "default 1\n"));
    assertEquals(
        V2WeightRoute.none(reason.formatted("unknown")),
        routes.route(new DeviceNumber(9, 9), null));
  }
}
