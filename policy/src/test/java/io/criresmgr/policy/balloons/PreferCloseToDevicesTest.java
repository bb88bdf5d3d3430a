package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.FakeDevices;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Balloon types prefer the CPUs of their {@code PreferCloseToDevices} devices; other types avoid
 * them (docs/policy/balloons.md, "CPU preferences"). On n4c16 (NUMA node k: CPUs 4k..4k+3, CPU 0
 * reserved) with a fake host holding an accelerator on NUMA node 2 that has only a {@code
 * numa_node}, and a NIC whose {@code local_cpulist} is node 3's CPUs.
 */
class PreferCloseToDevicesTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  private static final CpuSet NODE2 = CpuSet.parse("8-11");

  @TempDir Path host;

  @BeforeEach
  void devices() {
    assertEquals(NODE2, N4C16.node(2).cpus());
    FakeDevices.write(host, "/dev/accel0", 2, CpuSet.EMPTY);
    FakeDevices.write(host, "/sys/class/net/eth0", 3, CpuSet.parse("12-15"));
  }

  /** The policy as the daemon creates it, with {@code host} as the host root. */
  private BalloonsPolicy policy(String yaml) throws Exception {
    PolicyContext context =
        new PolicyContext(
            host, N4C16.onlineCpus(), CpuSet.range(0, 3), Map.of(), Map.of("CPU", "cpuset:0"));
    return (BalloonsPolicy) new BalloonsPolicyProvider(root -> N4C16).create(context, parse(yaml));
  }

  private String initial(String yaml) throws Exception {
    return policy(yaml).initialBalloons().stream()
        .filter(
            b -> !b.type().equals(BalloonType.RESERVED) && !b.type().equals(BalloonType.DEFAULT))
        .map(b -> b.name() + "=" + b.cpus())
        .collect(Collectors.joining(" "));
  }

  private static BalloonType type(BalloonsOptions o, String name) {
    return o.effectiveTypes().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aTypeGetsTheCpusOfTheNumaNodeOfItsDevice() throws Exception {
    String yaml =
        """
        BalloonTypes:
          - Name: ai
            PreferCloseToDevices: [/dev/accel0]
            MinBalloons: 2
            MinCPUs: 2
        """;
    assertEquals("ai[0]=10-11 ai[1]=8-9", initial(yaml));
    assertEquals("ai[0]=2-3 ai[1]=4-5", initial(yaml.replace("[/dev/accel0]", "[]")));
  }

  @Test
  void theFirstDeviceComesFirstThenTheNext() throws Exception {
    String yaml =
        """
        BalloonTypes:
          - Name: net
            PreferCloseToDevices: [/sys/class/net/eth0, /dev/accel0]
            MinBalloons: 3
            MinCPUs: 4
        """;
    assertEquals("net[0]=12-15 net[1]=8-11 net[2]=4-7", initial(yaml));
  }

  @Test
  void otherTypesAvoidTheDeviceWhileOtherCpusAreFree() throws Exception {
    String yaml =
        """
        BalloonTypes:
          - Name: ai
            PreferCloseToDevices: [/dev/accel0]
          - Name: plain
            MinBalloons: 3
            MinCPUs: 3
        """;
    String placed = initial(yaml);
    assertEquals("plain[0]=12-14 plain[1]=1-3 plain[2]=4-6", placed);
    // without the ai type, plain fills the nodes in order and takes node 2's CPUs
    String alone = initial(yaml.replaceFirst("(?s)  - Name: ai.*?(  - Name: plain)", "$1"));
    assertTrue(alone.contains("8"), alone);
    // when only node 2's CPUs are left, plain takes them
    String full = initial(yaml.replace("MinBalloons: 3", "MinBalloons: 5"));
    assertTrue(full.contains("=8-10") || full.contains("=9-11"), full);
  }

  @Test
  void aDeviceThatIsNotThereIsIgnored() throws Exception {
    String yaml =
        """
        BalloonTypes:
          - Name: ai
            PreferCloseToDevices: [/dev/nothere, /sys/devices/system/cpu]
            MinBalloons: 2
            MinCPUs: 2
        """;
    assertEquals("ai[0]=2-3 ai[1]=4-5", initial(yaml));
  }

  @Test
  void deviceCpusComeFromTheLocalCpuListElseTheNumaNode() {
    DeviceCpus cpus = DeviceCpus.of(host, N4C16);
    assertEquals(NODE2, cpus.cpus("/dev/accel0"));
    assertEquals(CpuSet.parse("12-15"), cpus.cpus("/sys/class/net/eth0"));
    assertEquals(CpuSet.EMPTY, cpus.cpus("/dev/nothere"));
    assertEquals(CpuSet.EMPTY, DeviceCpus.NONE.cpus("/dev/accel0"));
  }

  @Test
  void preferencesListOwnDevicesFirstAndOtherTypesAvoidThem() throws Exception {
    BalloonsOptions o =
        parse(
            """
            BalloonTypes:
              - {Name: ai, PreferCloseToDevices: [/dev/accel0, /sys/class/net/eth0]}
              - {Name: net, PreferCloseToDevices: [/sys/class/net/eth0]}
            """);
    DeviceCpus cpus = DeviceCpus.of(host, N4C16);
    assertEquals(
        "[prefer /dev/accel0 8-11, prefer /sys/class/net/eth0 12-15]",
        CpuPreferences.of(type(o, "ai"), o.effectiveTypes(), N4C16, cpus).hints().toString());
    assertEquals(
        "[prefer /sys/class/net/eth0 12-15, avoid /dev/accel0 8-11]",
        CpuPreferences.of(type(o, "net"), o.effectiveTypes(), N4C16, cpus).hints().toString());
    BalloonType dflt = type(o, BalloonType.DEFAULT);
    assertEquals(
        "[avoid /dev/accel0 8-11, avoid /sys/class/net/eth0 12-15]",
        CpuPreferences.of(dflt, o.effectiveTypes(), N4C16, cpus).hints().toString());
  }

  @Test
  void parsing() throws Exception {
    BalloonsOptions o =
        parse(
            """
            balloonTypes:
              - name: ai
                preferCloseToDevices: [/dev/accel0, /sys/class/net/eth0]
              - name: one
                preferCloseToDevices: /dev/accel0
            """);
    assertEquals(
        "[/dev/accel0, /sys/class/net/eth0]", type(o, "ai").preferCloseToDevices().toString());
    assertEquals("[/dev/accel0]", type(o, "one").preferCloseToDevices().toString());
    assertTrue(BalloonType.named("x").preferCloseToDevices().isEmpty());
    assertFalse(NriOnlyKeys.TYPE.contains("preferCloseToDevices"));
  }

  @Test
  void badEntriesAreRefused() {
    PolicyException relative =
        assertThrows(
            PolicyException.class,
            () -> parse("BalloonTypes:\n  - {Name: ai, PreferCloseToDevices: [eth0]}\n"));
    assertEquals(
        "policy.balloons.BalloonTypes[0]: balloon type \"ai\": PreferCloseToDevices: \"eth0\" is"
            + " not an absolute path; expected device paths such as /sys/class/net/eth0,"
            + " /sys/bus/pci/devices/0000:3b:00.0 or /dev/vfio/7",
        relative.getMessage());
    PolicyException notAList =
        assertThrows(
            PolicyException.class,
            () -> parse("BalloonTypes:\n  - {Name: ai, PreferCloseToDevices: {a: b}}\n"));
    assertEquals(
        "policy.balloons.BalloonTypes[0].PreferCloseToDevices: invalid value {\"a\":\"b\"}:"
            + " expected a list of device paths (balloon type \"ai\")",
        notAList.getMessage());
  }
}
