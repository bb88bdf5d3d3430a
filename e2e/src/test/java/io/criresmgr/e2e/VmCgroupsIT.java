package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code cgroups} controller on a real cgroup v2 node (the VM bed, 2 CPUs, one memory node):
 * for placements by {@code topology-aware} and by {@code balloons}, the container's own cgroup
 * holds exactly the CPUs and memory nodes the policy chose and the CPU and memory values kubelet
 * asked for ({@code cpuset.cpus}, {@code cpuset.cpus.effective}, {@code cpuset.mems}, {@code
 * cpu.weight}, {@code cpu.max}, {@code memory.max}); an UpdateContainerResources as kubelet sends
 * it (no cpuset) changes the limits live and keeps the policy's CPUs; values changed by hand are
 * put back by a daemon restart, which changes nothing else.
 */
@Tag("e2e")
@ExtendWith(VmBed.Extension.class)
class VmCgroupsIT {
  private static final Logger LOG = LoggerFactory.getLogger(VmCgroupsIT.class);
  private static final String[] FILES = {
    "cpuset.cpus", "cpuset.cpus.effective", "cpuset.mems", "cpu.weight", "cpu.max", "memory.max"
  };

  static final String TOPOLOGY_AWARE =
      """
      policy:
        Active: topology-aware
        ReservedResources:
          CPU: 750m
      instrumentation:
        HTTPEndpoint: ""
        PrometheusExport: false
      """;

  private static @Nullable VmBed bed;
  private @Nullable VmDaemon daemon;

  @BeforeAll
  static void vm(VmBed vm) {
    bed = vm;
  }

  @AfterEach
  void stopDaemon() throws IOException {
    if (daemon != null) {
      daemon.close();
    }
  }

  @Test
  void topologyAwarePlacementsAreExactInTheCgroupsFollowUpdatesAndSurviveARestart()
      throws Exception {
    // reserved 750m: CPU 0 for kube-system; CPU 1 is the shared pool
    placeUpdateRepair("cgroups-ta", TOPOLOGY_AWARE, Map.of());
  }

  @Test
  void balloonsPlacementsAreExactInTheCgroupsFollowUpdatesAndSurviveARestart() throws Exception {
    // reserved balloon CPU 0 for kube-system; the annotated pod's own balloon gets CPU 1
    placeUpdateRepair(
        "cgroups-bl", BalloonsPolicyIT.CONFIG, Map.of(BalloonsPolicyIT.ANNOTATION, "pinned"));
  }

  /**
   * Runs a kube-system container (CPU 0) and an application container (CPU 1, pod {@code
   * annotations}) through a daemon with {@code config}, checks their cgroup files, updates the
   * application container as kubelet does, changes its files by hand and restarts the daemon.
   */
  private void placeUpdateRepair(String state, String config, Map<String, String> annotations)
      throws Exception {
    VmBed vm = ResmgrBed.require(bed);
    VmNode node = new VmNode(vm.shell());
    VmDaemon started = VmDaemon.start(vm, state, config);
    daemon = started;
    String name = podName(state);
    Path logs = Path.of("/tmp", name);
    var sysSpec = burstable(name + "-sys", logs, "kube-system");
    var appSpec = burstable(name, logs, WorkflowSpec.NAMESPACE);
    try (CriClient cri = new CriClient(started.relaySocket());
        PinnedPod sys = PinnedPod.run(cri, sysSpec, node);
        PinnedPod app = PinnedPod.run(cri, appSpec, annotations, node)) {
      String dns = sys.start("dns", resources(512, 0, 64L << 20));
      String web = app.start("web", resources(256, 50_000, 128L << 20));
      Map<String, String> dnsFiles = expected("0", "0", 20, "max 100000", 64L << 20);
      Map<String, String> webFiles = expected("1", "0", 10, "50000 100000", 128L << 20);
      assertFiles(dnsFiles, node, sysSpec, dns, "kube-system container on the reserved CPU");
      assertFiles(webFiles, node, appSpec, web, "application container on CPU 1");
      ResmgrBed.assertCpus("1", app.placement(web), "web's init process");

      // kubelet's UpdateContainerResources: the container's whole resources, no cpuset
      cri.runtime()
          .updateContainerResources(
              UpdateContainerResourcesRequest.newBuilder()
                  .setContainerId(web)
                  .setLinux(resources(256, 80_000, 192L << 20))
                  .build());
      webFiles = expected("1", "0", 10, "80000 100000", 192L << 20);
      assertFiles(webFiles, node, appSpec, web, "after kubelet's update");

      String dir = VmNode.containerDir(appSpec.cgroupParent(), web);
      vm.shell()
          .check(
              String.join(
                  "\n",
                  "cd " + VmShell.quote(dir),
                  "echo 0-1 > cpuset.cpus",
                  "echo 100 > cpu.weight",
                  "echo 'max 100000' > cpu.max",
                  "echo max > memory.max"));
      assertFiles(
          expected("0-1", "0", 100, "max 100000", -1), node, appSpec, web, "changed by hand");

      VmDaemon restarted = started.restart(config);
      daemon = restarted;
      assertFiles(webFiles, node, appSpec, web, "repaired by the restart");
      assertFiles(dnsFiles, node, sysSpec, dns, "untouched by the restart");
      ResmgrBed.assertCpus("1", app.placement(web), "web's init process after the restart");
      String log = restarted.log();
      assertTrue(
          log.contains(
              "restored [cpuset.cpus, cpu shares, cpu quota, memory limit] in the cgroup of "
                  + name
                  + "-uid:web"),
          () -> "the cgroups controller did not report the repair:\n" + log);
    } catch (AssertionError | RuntimeException e) {
      VmDaemon current = daemon;
      LOG.error("cri-resmgr's log in the VM:\n{}", current == null ? "" : current.log());
      throw e;
    }
  }

  /** A Burstable pod as kubelet runs it with {@code --cgroup-root /<name>}. */
  static WorkflowSpec burstable(String name, Path logs, String namespace) {
    return new WorkflowSpec(name, logs, namespace, "/" + name + "/kubepods/burstable/pod" + name);
  }

  /** What kubelet sends: shares, a period, a quota (0: none) and a memory limit. */
  static LinuxContainerResources resources(long shares, long quota, long memory) {
    return LinuxContainerResources.newBuilder()
        .setCpuShares(shares)
        .setCpuPeriod(100_000)
        .setCpuQuota(quota)
        .setMemoryLimitInBytes(memory)
        .build();
  }

  /**
   * The expected files; cpu.weight by the Kubernetes/runc conversion of the shares, a negative
   * memory limit is {@code max}.
   */
  static Map<String, String> expected(
      String cpus, String mems, long weight, String cpuMax, long memoryMax) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("cpuset.cpus", cpus);
    m.put("cpuset.cpus.effective", cpus);
    m.put("cpuset.mems", mems);
    m.put("cpu.weight", Long.toString(weight));
    m.put("cpu.max", cpuMax);
    m.put("memory.max", memoryMax < 0 ? "max" : Long.toString(memoryMax));
    return m;
  }

  static void assertFiles(
      Map<String, String> expected, VmNode node, WorkflowSpec spec, String id, String what)
      throws IOException {
    Map<String, String> actual = node.containerFiles(spec.cgroupParent(), id, FILES);
    assertEquals(
        expected, actual, () -> what + ": " + VmNode.containerDir(spec.cgroupParent(), id));
  }
}
