package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.Device;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.sysfs.DeviceHints;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario's host devices: parsed from {@code devices}, written into the fake sysfs where {@link
 * DeviceHints} finds them, and given to containers by the {@code devices} and {@code mounts} keys
 * of create steps.
 */
class ScenarioDevicesTest {
  private static final String SCENARIO =
      """
      topology: n4c16
      devices:
        /dev/vfio/7: {numa: 3}
        /dev/nvidia0: {cpus: "0-7"}
        /dev/sdb: {numa: 1, cpus: 4-7}
        /dev/null0:
      steps:
        - set: {devices: /dev/nvidia0}
        - create: {contcount: 2, icontcount: 1, devices: [/dev/vfio/7], mounts: [/dev/sdb]}
        - create: {}
        - expect-error: {create: {devices: [/dev/vfio/7, /dev/sdb]}, message: x}
        - random: {operations: 1, pods: {gu: {devices: /dev/null0}}}
      """;

  @TempDir Path dir;

  @Test
  void parsesTheHostsDevicesInFileOrder() {
    Scenario s = Scenario.parse("s.yaml", SCENARIO);
    assertEquals(
        List.of("/dev/vfio/7", "/dev/nvidia0", "/dev/sdb", "/dev/null0"),
        List.copyOf(s.devices().keySet()));
    assertEquals(new HostDevice(3, CpuSet.EMPTY), s.devices().get("/dev/vfio/7"));
    assertEquals(new HostDevice(-1, CpuSet.parse("0-7")), s.devices().get("/dev/nvidia0"));
    assertEquals(new HostDevice(1, CpuSet.parse("4-7")), s.devices().get("/dev/sdb"));
    assertEquals(new HostDevice(-1, CpuSet.EMPTY), s.devices().get("/dev/null0"));
  }

  @Test
  void containersGetTheirPodsDevicesAndWritableMounts() {
    Scenario s = Scenario.parse("s.yaml", SCENARIO);
    PodVars defaults = PodVars.DEFAULTS.then(((Step.Defaults) s.steps().get(0)).vars());
    PodSpec pod = PodSpec.resolve(defaults.then(((Step.Create) s.steps().get(1)).vars()), "pod0");
    ContainerConfig c1 = KubeletConfigs.container(pod, "u", "pod0c1", 0);
    assertEquals(
        List.of(
            Device.newBuilder()
                .setContainerPath("/dev/vfio/7")
                .setHostPath("/dev/vfio/7")
                .setPermissions("rwm")
                .build()),
        c1.getDevicesList());
    assertEquals(
        List.of(Mount.newBuilder().setContainerPath("/dev/sdb").setHostPath("/dev/sdb").build()),
        c1.getMountsList());
    assertEquals(
        c1.getDevicesList(), KubeletConfigs.container(pod, "u", "pod0c0", 0).getDevicesList());
    ContainerConfig init = KubeletConfigs.container(pod, "u", "pod0c0i", 0);
    assertEquals(List.of(), init.getDevicesList());
    assertEquals(List.of(), init.getMountsList());
    // A create without devices keeps those of the set step.
    PodSpec later = PodSpec.resolve(defaults.then(((Step.Create) s.steps().get(2)).vars()), "p");
    assertEquals(List.of("/dev/nvidia0"), later.devices());
    assertEquals(List.of(), later.mounts());
  }

  @Test
  void unknownDevicesAreErrorsNamingTheStepTheKeyAndTheDevices() {
    String head = "devices: {/dev/vfio/7: {numa: 3}, /dev/nvidia0: {cpus: 0-7}}\nsteps:\n";
    assertError(
        head + "  - create: {devices: [/dev/vfio/7, /dev/vfio/8]}\n",
        "s.yaml:3: steps[0].create.devices[1]: unknown device /dev/vfio/8, the scenario's"
            + " devices are /dev/vfio/7, /dev/nvidia0");
    assertError(
        head + "  - expect-error:\n      create: {mounts: /dev/sda}\n      message: x\n",
        "s.yaml:4: steps[0].expect-error.create.mounts: unknown device /dev/sda, the scenario's"
            + " devices are /dev/vfio/7, /dev/nvidia0");
    assertError(
        head + "  - set: {devices: [/dev/nvidia0, /dev/nvidia0]}\n",
        "s.yaml:3: steps[0].set.devices[1]: /dev/nvidia0 given twice");
    assertError(
        head + "  - random: {operations: 1, pods: {gu: {devices: nvidia0}}}\n",
        "s.yaml:3: steps[0].random.pods.gu.devices: unknown device nvidia0");
    assertError(
        "steps:\n  - create: {devices: /dev/vfio/7}\n",
        "s.yaml:2: steps[0].create.devices: unknown device /dev/vfio/7: the scenario declares no"
            + " devices (top-level devices)");
  }

  @Test
  void badDeviceDeclarationsAreErrors() {
    assertError(
        "devices: {dev/vfio/7: {numa: 3}}\nsteps: []\n",
        "s.yaml:1: devices.dev/vfio/7: a device is an absolute host path");
    assertError(
        "devices: {/dev/vfio/7: {node: 3}}\nsteps: []\n",
        "s.yaml:1: devices./dev/vfio/7.node: unknown key, expected one of numa, cpus");
    assertError(
        "devices:\n  /dev/vfio/7: {numa: -1}\nsteps: []\n",
        "s.yaml:2: devices./dev/vfio/7.numa: expected a non-negative integer");
    assertError(
        "devices:\n  /dev/vfio/7: {cpus: x}\nsteps: []\n", "s.yaml:2: devices./dev/vfio/7.cpus:");
  }

  @Test
  void theHostTreeHoldsTheDevicesWhereDeviceHintsFindThem() {
    Path root = dir.resolve("host");
    HostTree.write(Scenario.parse("s.yaml", SCENARIO), root);
    List<TopologyHint> hints =
        new DeviceHints(root)
            .hints(
                List.of(
                    new DeviceHints.Use("/dev/vfio/7", "/dev/vfio/7", false),
                    new DeviceHints.Use("/dev/nvidia0", "/dev/nvidia0", false),
                    new DeviceHints.Use("/dev/sdb", "/dev/sdb", false),
                    new DeviceHints.Use("/dev/null0", "/dev/null0", false)));
    assertEquals(
        List.of(
            new TopologyHint("/dev/vfio/7", CpuSet.EMPTY, CpuSet.of(3)),
            new TopologyHint("/dev/nvidia0", CpuSet.parse("0-7"), CpuSet.EMPTY),
            new TopologyHint("/dev/sdb", CpuSet.parse("4-7"), CpuSet.of(1))),
        hints);
  }

  @Test
  void devicesOutsideTheTopologyAreErrors() {
    ScenarioException numa =
        assertThrows(
            ScenarioException.class,
            () ->
                HostTree.write(
                    Scenario.parse(
                        "s.yaml", "topology: n4c16\ndevices: {/dev/x: {numa: 4}}\nsteps: []\n"),
                    dir.resolve("a")));
    assertEquals(
        "s.yaml: devices: /dev/x: numa: no node 4, the topology has [0, 1, 2, 3]",
        numa.getMessage());
    ScenarioException cpus =
        assertThrows(
            ScenarioException.class,
            () ->
                HostTree.write(
                    Scenario.parse(
                        "s.yaml", "topology: n4c16\ndevices: {/dev/x: {cpus: 12-16}}\nsteps: []\n"),
                    dir.resolve("b")));
    assertEquals(
        "s.yaml: devices: /dev/x: cpus: 12-16 not within the topology's CPUs 0-15",
        cpus.getMessage());
  }

  private static void assertError(String yaml, String expected) {
    ScenarioException e =
        assertThrows(ScenarioException.class, () -> Scenario.parse("s.yaml", yaml));
    assertTrue(e.getMessage().startsWith(expected), () -> "message: " + e.getMessage());
  }
}
