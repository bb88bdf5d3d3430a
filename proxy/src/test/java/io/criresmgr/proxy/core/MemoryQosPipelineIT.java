package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.policy.none.NonePolicyProvider;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.config.ResourceManagerConfig;
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
 * The memory-qos controller in the daemon, in front of the simulated runtime, on a fake cgroup v2
 * host: the runtime gets the files as CRI unified resources at CreateContainer and at kubelet's
 * UpdateContainerResources, the daemon writes them into the cgroup at StartContainer, and a pod
 * asking for an unknown class cannot create its container.
 */
class MemoryQosPipelineIT {
  private static final String POD_UID = "uid-mq";
  private static final String PARENT = "/kubepods/burstable/pod" + POD_UID;
  private static final String SAMPLE =
      """
      {"classes": [{"name": "bronze", "swaplimitratio": 0.5},
                   {"name": "silver", "swaplimitratio": 0.2}],
       "unifiedannotations": ["memory.swap.max", "memory.high"]}
      """;

  @TempDir Path dir;
  private PipelineHarness h;
  private Path cgroups;

  @BeforeEach
  void start() throws Exception {
    cgroups = dir.resolve("cgroup");
    Files.createDirectories(cgroups);
    Files.writeString(cgroups.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
    h = new PipelineHarness(dir);
    h.startDaemon(h.options(false, cgroups), config(), NonePolicyProvider.memoryQos());
  }

  @AfterEach
  void close() {
    h.close();
  }

  /** Policy memory-qos, the controller required (so it must start), others out of the way. */
  private static Config config() throws Exception {
    return config(NonePolicyProvider.MEMORY_QOS);
  }

  /** {@code policy} active, the memory-qos controller required, others out of the way. */
  private static Config config(String policy) throws Exception {
    Config base = TestDaemons.config();
    JsonNode section = new ObjectMapper().readTree(SAMPLE);
    Map<String, ControllerMode> modes =
        Map.of(
            "memory-qos", ControllerMode.REQUIRED,
            "memtierd", ControllerMode.DISABLED,
            "cgroups", ControllerMode.DISABLED,
            "rdt", ControllerMode.DISABLED,
            "blockio", ControllerMode.DISABLED);
    return new Config(
        new PolicyConfig(policy, Map.of(), Map.of(), Map.of()),
        new ResourceManagerConfig(modes),
        base.dump(),
        base.logger(),
        base.instrumentation(),
        Map.of("memory-qos", section));
  }

  private String runPod(Map<String, String> annotations) {
    PodSandboxConfig pod =
        PipelineHarness.podConfig("mq", POD_UID, 0).toBuilder()
            .putAllAnnotations(annotations)
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent(PARENT))
            .build();
    return h.runPod(pod, h.relay());
  }

  private CreateContainerRequest createRequest(String podId, String name, long limit) {
    CreateContainerRequest request = h.createRequest(podId, name, 0);
    CreateContainerRequest.Builder b = request.toBuilder();
    b.getConfigBuilder().getLinuxBuilder().getResourcesBuilder().setMemoryLimitInBytes(limit);
    return b.build();
  }

  private CreateContainerRequest lastCreate() {
    return h.runtime()
        .hooks()
        .lastRequest("CreateContainer", CreateContainerRequest.class)
        .orElseThrow();
  }

  @Test
  void theRuntimeGetsUnifiedFilesAndTheCgroupIsWrittenAtStart() throws Exception {
    String pod = runPod(Map.of("class.memory-qos.nri.io", "bronze"));
    String id = h.relay().createContainer(createRequest(pod, "c0", 100_000_000L)).getContainerId();
    assertEquals(
        Map.of("memory.high", "50000000", "memory.swap.max", "max"),
        lastCreate().getConfig().getLinux().getResources().getUnifiedMap());

    // The simulated runtime applies nothing: the daemon writes what differs at StartContainer.
    Path cg = cgroups.resolve(PARENT.substring(1)).resolve(id);
    Files.createDirectories(cg);
    Files.writeString(cg.resolve("memory.high"), "max\n");
    Files.writeString(cg.resolve("memory.swap.max"), "max\n");
    h.start(id);
    assertEquals("50000000", Files.readString(cg.resolve("memory.high")));
    assertEquals("max\n", Files.readString(cg.resolve("memory.swap.max")));

    h.relay()
        .updateContainerResources(
            UpdateContainerResourcesRequest.newBuilder()
                .setContainerId(id)
                .setLinux(LinuxContainerResources.newBuilder().setMemoryLimitInBytes(200_000_000L))
                .build());
    UpdateContainerResourcesRequest update =
        h.runtime()
            .hooks()
            .lastRequest("UpdateContainerResources", UpdateContainerResourcesRequest.class)
            .orElseThrow();
    assertEquals(
        Map.of("memory.high", "100000000", "memory.swap.max", "max"),
        update.getLinux().getUnifiedMap());
  }

  @Test
  void combinesWithAPlacementPolicy() throws Exception {
    h.close();
    h = new PipelineHarness(dir.resolve("placement"));
    h.startDaemon(h.options(false, cgroups), config(ExclusiveCpusTestPolicyProvider.NAME));
    String pod = runPod(Map.of("class.memory-qos.nri.io", "silver"));
    h.relay().createContainer(createRequest(pod, "c0", 100_000_000L));
    LinuxContainerResources r = lastCreate().getConfig().getLinux().getResources();
    assertEquals("0", r.getCpusetCpus(), "the policy's exclusive CPU");
    assertEquals(
        Map.of("memory.high", "80000000", "memory.swap.max", "max"),
        r.getUnifiedMap(),
        "and the memory QoS class on top");
  }

  @Test
  void claimsWinOverKubeletsUnifiedFilesAndStayInTheCache() throws Exception {
    String pod = runPod(Map.of("class.memory-qos.nri.io", "bronze"));
    CreateContainerRequest.Builder b = createRequest(pod, "c0", 100_000_000L).toBuilder();
    // kubelet's swap support (NoSwap) asks for memory.swap.max=0 itself
    b.getConfigBuilder()
        .getLinuxBuilder()
        .getResourcesBuilder()
        .putUnified("memory.swap.max", "0")
        .putUnified("memory.min", "1000");
    String id = h.relay().createContainer(b.build()).getContainerId();
    assertEquals(
        Map.of("memory.high", "50000000", "memory.swap.max", "max", "memory.min", "1000"),
        lastCreate().getConfig().getLinux().getResources().getUnifiedMap());
    // Later enforcement (the cgroups controller, updates the daemon sends, a restart) reads the
    // cached request: it must carry the claimed values, not kubelet's.
    JsonNode cached =
        h.awaitCache(
            "the claimed files in the cached request",
            c ->
                PipelineHarness.containerById(c, id)
                    .path("LinuxReq")
                    .path("Unified")
                    .path("memory.swap.max")
                    .asText()
                    .equals("max"));
    assertEquals(
        "50000000",
        PipelineHarness.containerById(cached, id)
            .path("LinuxReq")
            .path("Unified")
            .path("memory.high")
            .asText());
  }

  @Test
  void anUnknownClassFailsCreateContainerOfARequiredController() {
    String pod = runPod(Map.of("class.memory-qos.nri.io/c1", "gold"));
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> h.relay().createContainer(createRequest(pod, "c1", 100_000_000L)));
    assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
    assertEquals(
        "cannot create container "
            + POD_UID
            + ":c1: controller memory-qos (pre-create): memory QoS of container c1:"
            + " class.memory-qos.nri.io/c1: unknown class \"gold\", expected one of bronze, silver",
        e.getStatus().getDescription());
    assertEquals(0, h.runtime().hooks().callCount("CreateContainer"));
  }
}
