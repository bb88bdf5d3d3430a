package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.policy.topologyaware.TopologyAwarePolicyProvider;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.PolicyConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without the webhook's annotation, the daemon (topology-aware on the fake n4c16 host) gives a
 * Burstable container the memory request kubelet derived its oom_score_adj from, on the node's
 * memory capacity: {@code <host-root>/proc/meminfo}, else the NUMA nodes' sum. The annotation, when
 * present, wins; adjustments that tell nothing give no request.
 */
class OomScoreAdjRequestIT {
  private static final long GIB = 1L << 30;
  private static final String WEBHOOK = "resources.cri-resource-manager.intel.com";

  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void start() throws Exception {
    h = new PipelineHarness(dir);
    FakeSysfsWriter.write(TopologySpec.builtIn("n4c16"), dir.resolve("sysfs"));
  }

  @AfterEach
  void close() {
    h.close();
  }

  /** Kubelet's oom_score_adj of a Burstable container ({@code pkg/kubelet/qos/policy.go}). */
  private static long kubelet(long memoryRequest, long memoryCapacity) {
    long adj = 1000 - (1000 * memoryRequest) / memoryCapacity;
    return adj < 3 ? 3 : adj == 1000 ? 999 : adj;
  }

  @Test
  void burstableContainersGetTheirRequestFromProcMeminfo() throws Exception {
    // MemTotal is below the NUMA nodes' 8 GiB, as the kernel keeps some: kubelet's capacity.
    long capacity = 8_323_072L * 1024;
    Path meminfo = dir.resolve("sysfs/proc/meminfo");
    Files.createDirectories(meminfo.getParent());
    Files.writeString(meminfo, "MemTotal:        8323072 kB\nMemFree:         1024 kB\n");
    startDaemon();

    long mib700 = 700L << 20;
    String b700 = run("b700", "burstable", kubelet(mib700, capacity), 2 * GIB, Map.of());
    String none = run("b0", "burstable", kubelet(0, capacity), GIB, Map.of());
    String capped = run("bl", "burstable", kubelet(mib700, capacity), 512L << 20, Map.of());
    String annotated =
        run(
            "ba",
            "burstable",
            kubelet(mib700, capacity),
            GIB,
            Map.of(
                WEBHOOK,
                "{\"containers\":{\"ba\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"300Mi\"},"
                    + "\"limits\":{\"memory\":\"1Gi\"}}}}"));
    String guaranteed = run("g", "", -997, 256L << 20, Map.of());

    JsonNode cache = h.barrier();
    // 700 MiB: adjustment 914, whose smallest request is 86/1000 of MemTotal, rounded up.
    assertEquals(914, kubelet(mib700, capacity));
    assertEquals(732_963_013L, memoryRequest(cache, b700));
    assertEquals(0, memoryRequest(cache, none), "999 tells nothing");
    assertEquals(512L << 20, memoryRequest(cache, capped), "never above the limit");
    assertEquals(300L << 20, memoryRequest(cache, annotated), "the webhook's annotation wins");
    assertEquals(256L << 20, memoryRequest(cache, guaranteed), "Guaranteed: the limit");
  }

  @Test
  void withoutProcMeminfoTheNumaNodesSumIsTheCapacityAlsoForAdoptedContainers() throws Exception {
    long capacity = 0;
    for (NumaNode n : TopologySpec.builtIn("n4c16").topology().nodes().values()) {
      capacity += n.memoryBytes() / 1024 * 1024;
    }
    startDaemon();
    long request = capacity / 5;
    String id = run("b", "burstable", kubelet(request, capacity), 0, Map.of());
    long expected = ((1000 - kubelet(request, capacity)) * capacity + 999) / 1000;
    assertEquals(expected, memoryRequest(h.barrier(), id));

    h.stopDaemon();
    Files.writeString(h.cacheFile(), "{\"Version\": broken");
    startDaemon();
    JsonNode adopted =
        h.awaitCache("the container adopted", c -> PipelineHarness.state(c, id).equals("RUNNING"));
    assertEquals(expected, memoryRequest(adopted, id), "adopted from the runtime's status");
  }

  @Test
  void topologyAwareReservesTheEstimatedRequestWhereTheMostMemoryIs() throws Exception {
    long capacity = 8 * GIB; // n4c16: four 2 GiB nodes, no proc/meminfo
    startDaemon();
    // 3 GiB estimated, no memory limit: the policy reserves the request, and a Burstable container
    // reserving memory without a memory limit prefers the pool with the most memory, the root
    // (docs/policy/topology-aware.md, pool choice rules).
    String id = run("big", "burstable", kubelet(3 * GIB, capacity), 0, Map.of());
    JsonNode cache = h.barrier();
    assertEquals(3 * GIB, memoryRequest(cache, id));
    String mems = PipelineHarness.containerById(cache, id).path("Assignment").path("Mems").asText();
    assertEquals("0-3", mems, "the memory of the root");
  }

  private static long memoryRequest(JsonNode cache, String id) {
    return PipelineHarness.containerById(cache, id)
        .path("Resources")
        .path("MemoryRequestBytes")
        .asLong(-1);
  }

  private void startDaemon() throws InterruptedException {
    Config config =
        PipelineHarness.config(
            new PolicyConfig("topology-aware", Map.of(), Map.of("CPU", "1"), Map.of()));
    h.startDaemon(h.optionsOnHost(dir.resolve("sysfs")), config, new TopologyAwarePolicyProvider());
  }

  /**
   * Runs pod {@code name} (QoS cgroup {@code qos}, "" for Guaranteed, pod annotations {@code
   * annotations}) with container {@code name} as kubelet sends it: 500m CPU, the memory limit
   * {@code limit} and {@code oomScoreAdj}; the container id.
   */
  private String run(
      String name, String qos, long oomScoreAdj, long limit, Map<String, String> annotations) {
    String parent = (qos.isEmpty() ? "/kubepods" : "/kubepods/" + qos) + "/poduid-" + name;
    PodSandboxConfig sandbox =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder()
                    .setName(name)
                    .setNamespace("default")
                    .setUid("uid-" + name))
            .putAllAnnotations(annotations)
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent(parent))
            .build();
    String podId = h.runPod(sandbox, h.relay());
    LinuxContainerResources resources =
        LinuxContainerResources.newBuilder()
            .setCpuShares(512)
            .setCpuPeriod(100_000)
            .setCpuQuota(qos.isEmpty() ? 50_000 : 0)
            .setMemoryLimitInBytes(limit)
            .setOomScoreAdj(oomScoreAdj)
            .build();
    return h.createAndStart(podId, sandbox, name, resources);
  }
}
