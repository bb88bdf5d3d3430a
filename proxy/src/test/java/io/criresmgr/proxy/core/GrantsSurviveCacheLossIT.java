package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.balloons.BalloonsPolicyProvider;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.policy.topologyaware.TopologyAwarePolicyProvider;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.core.cri.RequestedAnnotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loss of the cache file moves no container: Guaranteed containers with exclusive CPUs and
 * shared ones are created through the daemon (kubelet's calls) on a 16-CPU, 4-node fake sysfs, the
 * daemon stops, its cache file is corrupted, and after the restart every container runs on the same
 * CPUs and memory nodes (as the runtime reports them) and the cache holds the same requests and
 * limits as before.
 */
class GrantsSurviveCacheLossIT {
  private static final String TOPOLOGY_AWARE = "topology-aware";
  private static final String BALLOONS = "balloons";

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

  @Test
  void topologyAwareGivesEveryContainerItsCpusAndMemoryBackAfterTheCacheIsLost() throws Exception {
    startDaemon(TOPOLOGY_AWARE, MissingNode.getInstance());
    Map<String, String> ids = new LinkedHashMap<>();
    String gone = run("g0", guaranteed(2));
    ids.put("g1", run("g1", guaranteed(2)));
    ids.put("s1", run("s1", burstable(500)));
    ids.put("g2", run("g2", guaranteed(3)));
    ids.put("b1", run("b1", bestEffort()));
    ids.put("g3", run("g3", guaranteed(1)));
    h.stop(gone);
    h.remove(gone); // a hole: allocating afresh in creation order would fill it
    ids.put("s2", run("s2", burstable(1500)));

    assertSurvivesCacheLoss(ids, TOPOLOGY_AWARE, MissingNode.getInstance());
  }

  @Test
  void balloonsGivesEveryContainerItsBalloonCpusBackAfterTheCacheIsLost() throws Exception {
    JsonNode options =
        new ObjectMapper()
            .readTree(
                "{\"BalloonTypes\":[{\"Name\":\"dedicated\",\"Namespaces\":[\"default\"],"
                    + "\"PreferNewBalloons\":true}]}");
    startDaemon(BALLOONS, options);
    Map<String, String> ids = new LinkedHashMap<>();
    String gone = run("g0", guaranteed(2));
    ids.put("g1", run("g1", guaranteed(2)));
    ids.put("g2", run("g2", guaranteed(3)));
    h.stop(gone);
    h.remove(gone);
    ids.put("g3", run("g3", guaranteed(1)));

    assertSurvivesCacheLoss(ids, BALLOONS, options);
  }

  private void assertSurvivesCacheLoss(Map<String, String> ids, String policy, JsonNode options)
      throws Exception {
    JsonNode before = h.barrier();
    Map<String, String> placed = awaitSettled(ids, before);
    Map<String, JsonNode> requests = cachedRequests(ids, before);
    assertTrue(
        placed.values().stream().anyMatch(p -> !p.startsWith("cpus= ")),
        "the policy pins containers: " + placed);
    h.stopDaemon();
    Files.writeString(h.cacheFile(), "{\"Version\": broken");

    startDaemon(policy, options);

    h.awaitCache(
        "every container adopted",
        c -> ids.values().stream().allMatch(id -> PipelineHarness.state(c, id).equals("RUNNING")));
    awaitRuntime(ids, placed);
    JsonNode after = awaitAssignments(ids, placed);
    assertEquals(requests, cachedRequests(ids, after), "requests and limits in the cache");
  }

  /** Per container its cpuset and memory nodes in the runtime, once they are the cached ones. */
  private Map<String, String> awaitSettled(Map<String, String> ids, JsonNode cache)
      throws InterruptedException {
    Map<String, String> assigned = new LinkedHashMap<>();
    ids.forEach((name, id) -> assigned.put(name, cachedPlacement(cache, id)));
    awaitRuntime(ids, assigned);
    return assigned;
  }

  private void awaitRuntime(Map<String, String> ids, Map<String, String> expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    Map<String, String> seen = runtimePlacements(ids);
    while (!seen.equals(expected)) {
      if (System.nanoTime() > deadline) {
        fail("the runtime applies " + seen + ", expected " + expected);
      }
      Thread.sleep(20);
      seen = runtimePlacements(ids);
    }
  }

  private JsonNode awaitAssignments(Map<String, String> ids, Map<String, String> expected)
      throws InterruptedException {
    return h.awaitCache(
        "the assignments " + expected,
        c -> {
          Map<String, String> seen = new LinkedHashMap<>();
          ids.forEach((name, id) -> seen.put(name, cachedPlacement(c, id)));
          return seen.equals(expected);
        });
  }

  private Map<String, String> runtimePlacements(Map<String, String> ids) {
    Map<String, String> seen = new LinkedHashMap<>();
    ids.forEach(
        (name, id) -> {
          LinuxContainerResources r =
              h.direct()
                  .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build())
                  .getStatus()
                  .getResources()
                  .getLinux();
          seen.put(name, placement(r.getCpusetCpus(), r.getCpusetMems()));
        });
    return seen;
  }

  private static String cachedPlacement(JsonNode cache, String id) {
    JsonNode a = PipelineHarness.containerById(cache, id).path("Assignment");
    return placement(a.path("CPUs").asText(""), a.path("Mems").asText(""));
  }

  private static String placement(String cpus, String mems) {
    return "cpus=" + CpuSet.parse(cpus) + " mems=" + CpuSet.parse(mems);
  }

  /** Per container its requests and limits, requested linux resources and annotations. */
  private static Map<String, JsonNode> cachedRequests(Map<String, String> ids, JsonNode cache) {
    Map<String, JsonNode> all = new LinkedHashMap<>();
    ids.forEach(
        (name, id) -> {
          JsonNode c = PipelineHarness.containerById(cache, id);
          assertNotEquals(0, c.size(), "container " + name + " is cached");
          assertTrue(
              !c.path("Annotations").has(RequestedAnnotation.KEY),
              "the cache keeps kubelet's annotations only: " + c.path("Annotations"));
          all.put(name + " resources", c.path("Resources"));
          all.put(name + " requested", c.path("LinuxReq"));
          all.put(name + " annotations", c.path("Annotations"));
          all.put(name + " QoS", c.path("QOSClass"));
        });
    return all;
  }

  private void startDaemon(String policy, JsonNode options) throws InterruptedException {
    Config config =
        PipelineHarness.config(
            new PolicyConfig(
                policy,
                Map.of(),
                Map.of("CPU", "1"),
                options.isMissingNode() ? Map.of() : Map.of(policy, options)));
    DaemonOptions o = h.optionsOnHost(dir.resolve("sysfs"));
    List<PolicyProvider<?>> extra =
        List.of(new TopologyAwarePolicyProvider(), new BalloonsPolicyProvider());
    h.startDaemon(o, config, extra.toArray(PolicyProvider<?>[]::new));
  }

  /** Runs pod {@code name} with one container {@code name} as kubelet does; the container id. */
  private String run(String name, Pod pod) {
    PodSandboxConfig sandbox =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder()
                    .setName(name)
                    .setNamespace("default")
                    .setUid("uid-" + name))
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent(pod.cgroupParent(name)))
            .build();
    String podId = h.runPod(sandbox, h.relay());
    return h.createAndStart(podId, sandbox, name, pod.resources());
  }

  /** A pod's QoS class (as its cgroup parent tells) and its container's resources. */
  private record Pod(String qos, LinuxContainerResources resources) {
    String cgroupParent(String name) {
      return qos.isEmpty() ? "/kubepods/poduid-" + name : "/kubepods/" + qos + "/poduid-" + name;
    }
  }

  /** {@code cpus} whole CPUs and 256 MiB, requests equal to limits, as kubelet sends them. */
  private static Pod guaranteed(int cpus) {
    return new Pod(
        "",
        LinuxContainerResources.newBuilder()
            .setCpuShares(1024L * cpus)
            .setCpuPeriod(100_000)
            .setCpuQuota(100_000L * cpus)
            .setMemoryLimitInBytes(256L << 20)
            .build());
  }

  /** A CPU request of {@code milli}, no CPU limit, a 128 MiB memory limit. */
  private static Pod burstable(long milli) {
    return new Pod(
        "burstable",
        LinuxContainerResources.newBuilder()
            .setCpuShares(milli * 1024 / 1000)
            .setCpuPeriod(100_000)
            .setMemoryLimitInBytes(128L << 20)
            .build());
  }

  private static Pod bestEffort() {
    return new Pod(
        "besteffort",
        LinuxContainerResources.newBuilder().setCpuShares(2).setCpuPeriod(100_000).build());
  }
}
