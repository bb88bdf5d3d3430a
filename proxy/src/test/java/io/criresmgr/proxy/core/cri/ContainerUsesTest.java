package io.criresmgr.proxy.core.cri;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.ContainerStatusResponse;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.policy.sysfs.DeviceHints.Node;
import io.criresmgr.policy.sysfs.DeviceHints.Use;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The mounts and devices of a container read from its verbose status. */
class ContainerUsesTest {
  /** Shaped as containerd reports it: proc and bind mounts, devices with cgroup rules. */
  private static final String CONTAINERD_INFO =
      """
      {"sandboxID": "pod-1", "pid": 42, "runtimeSpec": {
        "mounts": [
          {"destination": "/proc", "type": "proc", "source": "proc",
           "options": ["nosuid", "noexec", "nodev"]},
          {"destination": "/data", "type": "bind", "source": "/mnt/data",
           "options": ["rbind", "rprivate", "rw"]},
          {"destination": "/config", "type": "bind", "source": "/etc/app",
           "options": ["rbind", "rprivate", "ro"]},
          {"destination": "/dev/shm", "type": "bind", "source": "shm", "options": ["rbind"]}],
        "linux": {
          "devices": [
            {"path": "/dev/nvidia0", "type": "c", "major": 195, "minor": 0},
            {"path": "/dev/nvidia1", "type": "c", "major": 195, "minor": 1},
            {"path": "/dev/nvme0n1", "type": "b", "major": 259, "minor": 0},
            {"path": "/dev/fifo", "type": "p", "major": 0, "minor": 0},
            {"path": "/dev/broken", "type": "c", "major": "x", "minor": 1}],
          "resources": {"devices": [
            {"allow": false, "access": "rwm"},
            {"allow": true, "type": "c", "major": 195, "minor": 0, "access": "rw"},
            {"allow": true, "type": "c", "major": 195, "minor": 1, "access": "r"},
            {"allow": true, "type": "b", "major": 259, "minor": 0, "access": "rwm"}]}}}}
      """;

  private static ContainerStatusResponse response(@Nullable String info) {
    ContainerStatusResponse.Builder r =
        ContainerStatusResponse.newBuilder()
            .setStatus(
                ContainerStatus.newBuilder()
                    .setMetadata(ContainerMetadata.newBuilder().setName("app"))
                    .addMounts(
                        Mount.newBuilder()
                            .setHostPath("/mnt/data")
                            .setContainerPath("/data")
                            .setReadonly(true)));
    if (info != null) {
      r.putInfo("info", info);
    }
    return r.build();
  }

  private static final ContainerUses STATUS_MOUNTS =
      new ContainerUses(List.of(new Use("/mnt/data", "/data", true)), List.of());

  @Test
  void theRuntimeSpecGivesBindMountsAndDevicesByNumber() {
    assertEquals(
        new ContainerUses(
            List.of(new Use("/mnt/data", "/data", false), new Use("/etc/app", "/config", true)),
            List.of(
                new Node("/dev/nvidia0", false, 195, 0, false),
                new Node("/dev/nvidia1", false, 195, 1, true),
                new Node("/dev/nvme0n1", true, 259, 0, false))),
        ContainerUses.of(response(CONTAINERD_INFO)));
  }

  @Test
  void withoutARuntimeSpecTheStatusMountsAreUsed() {
    assertEquals(STATUS_MOUNTS, ContainerUses.of(response(null)));
    assertEquals(STATUS_MOUNTS, ContainerUses.of(response("")));
    assertEquals(STATUS_MOUNTS, ContainerUses.of(response("{\"pid\": 42}")));
    assertEquals(STATUS_MOUNTS, ContainerUses.of(response("{\"runtimeSpec\": \"spec\"}")));
  }

  @Test
  void garbledInfoIsNoError() {
    assertEquals(STATUS_MOUNTS, ContainerUses.of(response("{\"runtimeSpec\": {")));
    assertEquals(STATUS_MOUNTS, ContainerUses.of(response("not json")));
    assertEquals(
        new ContainerUses(List.of(), List.of()),
        ContainerUses.of(
            response("{\"runtimeSpec\": {\"mounts\": 3, \"linux\": {\"devices\": [1, \"x\"]}}}")));
  }

  @Test
  void aDeviceIsWritableUnlessTheLastRuleNamingWritesDeniesIt() throws Exception {
    assertTrue(writable("[]"), "no rules");
    assertTrue(writable("[{'allow': false}, {'allow': true, 'access': 'rwm'}]"), "privileged");
    assertFalse(
        writable(
            "[{'allow': false, 'access': 'rwm'}, {'allow': true, 'type': 'c',"
                + " 'major': 1, 'minor': 3, 'access': 'rwm'}]"),
        "another device allowed");
    assertFalse(writable("[{'allow': true}, {'allow': false, 'type': 'c', 'access': 'w'}]"));
    assertTrue(writable("[{'allow': true}, {'allow': false, 'type': 'b', 'access': 'w'}]"));
    assertTrue(writable("[{'allow': true}, {'allow': false, 'type': 'c', 'access': 'm'}]"));
  }

  /** Whether character device 195:0 is writable under {@code rules} (quotes: '). */
  private static boolean writable(String rules) throws Exception {
    return ContainerUses.writable(
        new ObjectMapper().readTree(rules.replace('\'', '"')), false, 195, 0);
  }
}
