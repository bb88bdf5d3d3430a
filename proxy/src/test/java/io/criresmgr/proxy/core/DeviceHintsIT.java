package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.Device;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.FakeDevices;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.policy.topologyaware.TopologyAwarePolicyProvider;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.PolicyConfig;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon finds the NUMA node of a container's device in the fake host's sysfs (n4c16 with
 * {@code /dev/vfio/7} on node 3, CPUs 12-15), keeps the hint in the cache across a restart, finds
 * it again for the container adopted after the cache is lost, and topology-aware places the
 * container there, or refuses it under strict hints.
 */
class DeviceHintsIT {
  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void start() throws Exception {
    Path host = dir.resolve("sysfs");
    h = new PipelineHarness(dir, host);
    FakeSysfsWriter.write(TopologySpec.builtIn("n4c16"), host);
    FakeDevices.write(host, "/dev/vfio/7", 3, CpuSet.parse("12-15"));
    FakeDevices.write(host, "/dev/vfio/1", 0, CpuSet.parse("0-3"));
    startDaemon();
  }

  @AfterEach
  void close() {
    h.close();
  }

  private void startDaemon() throws InterruptedException {
    Config config =
        PipelineHarness.config(
            new PolicyConfig("topology-aware", Map.of(), Map.of("CPU", "1"), Map.of()));
    h.startDaemon(h.optionsOnHost(dir.resolve("sysfs")), config, new TopologyAwarePolicyProvider());
  }

  private String createWithDevices(String pod, Map<String, String> annotations, String... devices) {
    PodSandboxConfig sandbox =
        PipelineHarness.podConfig(pod, "uid-" + pod, 0).toBuilder()
            .putAllAnnotations(annotations)
            .build();
    String podId = h.runPod(sandbox, h.relay());
    CreateContainerRequest request = h.createRequest(podId, "app", 0);
    var config = request.getConfig().toBuilder();
    for (String d : devices) {
      config.addDevices(
          Device.newBuilder().setHostPath(d).setContainerPath(d).setPermissions("rwm"));
    }
    String id =
        h.relay().createContainer(request.toBuilder().setConfig(config).build()).getContainerId();
    h.start(id);
    return id;
  }

  @Test
  void aContainerRunsNextToItsDeviceAlsoAfterARestart() throws Exception {
    String id = createWithDevices("gpu", Map.of(), "/dev/vfio/7");
    assertEquals("12-15", h.cpuset(id));
    JsonNode cached = PipelineHarness.containerById(h.barrier(), id);
    assertEquals("3", cached.path("Assignment").path("Mems").asText());
    assertEquals(
        "[{\"Provider\":\"/dev/vfio/7\",\"CPUs\":\"12-15\",\"NUMAs\":\"3\"}]",
        cached.path("TopologyHints").toString());

    h.stopDaemon();
    startDaemon();
    h.barrier(); // a change: the restored cache is written again
    JsonNode restored = PipelineHarness.containerById(h.cache(), id);
    assertEquals(cached.path("TopologyHints"), restored.path("TopologyHints"));
    assertEquals("12-15", h.cpuset(id));
  }

  @Test
  void aContainerAdoptedAfterTheCacheIsLostGetsTheHintsOfItsDevicesAndMounts() throws Exception {
    FakeDevices.write(dir.resolve("sysfs"), "/data/disk", 1, CpuSet.parse("4-7"));
    String podId = h.runPod(PipelineHarness.podConfig("gpu", "uid-gpu", 0), h.relay());
    CreateContainerRequest request = h.createRequest(podId, "app", 0);
    var config =
        request.getConfig().toBuilder()
            .addDevices(
                Device.newBuilder()
                    .setHostPath("/dev/vfio/7")
                    .setContainerPath("/dev/vfio/7")
                    .setPermissions("rw"))
            .addDevices(
                Device.newBuilder()
                    .setHostPath("/dev/vfio/1")
                    .setContainerPath("/dev/vfio/1")
                    .setPermissions("r"))
            .addMounts(Mount.newBuilder().setHostPath("/data/disk").setContainerPath("/data"));
    String id =
        h.relay().createContainer(request.toBuilder().setConfig(config).build()).getContainerId();
    h.start(id);
    JsonNode created = PipelineHarness.containerById(h.barrier(), id).path("TopologyHints");
    assertEquals(
        "[{\"Provider\":\"/data/disk\",\"CPUs\":\"4-7\",\"NUMAs\":\"1\"},"
            + "{\"Provider\":\"/dev/vfio/7\",\"CPUs\":\"12-15\",\"NUMAs\":\"3\"}]",
        created.toString());
    String cpus = h.cpuset(id);

    h.stopDaemon();
    Files.delete(h.cacheFile());
    startDaemon();
    JsonNode adopted = PipelineHarness.containerById(h.barrier(), id);
    assertEquals(created, adopted.path("TopologyHints"));
    assertEquals(cpus, h.cpuset(id));
  }

  @Test
  void strictHintsThatNoPoolMeetsRefuseTheContainer() {
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                createWithDevices(
                    "two",
                    Map.of("strict.topologyhints.resource-policy.nri.io", "true"),
                    "/dev/vfio/1",
                    "/dev/vfio/7"));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    assertTrue(
        e.getStatus()
            .getDescription()
            .contains(
                "no pool lies close to every device; devices: /dev/vfio/1 (CPUs 0-3, NUMA node"
                    + " 0), /dev/vfio/7 (CPUs 12-15, NUMA node 3)"),
        e.getStatus().getDescription());
  }
}
