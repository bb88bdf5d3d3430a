package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
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
 * A cache file that parses but gives one CPU exclusively to two containers (damaged, or edited by
 * hand) is not enforced as it is: topology-aware restores its grants at start, reallocates the one
 * that does not fit, and the runtime ends with disjoint cpusets.
 */
class DamagedCacheIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void startRuntime() throws Exception {
    FakeSysfsWriter.write(TopologySpec.builtIn("laptop"), dir.resolve("host")); // CPUs 0-7
    h = new PipelineHarness(dir);
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private void startDaemon() throws InterruptedException {
    Config base = PipelineHarness.config("topology-aware");
    Config config =
        new Config(
            new PolicyConfig("topology-aware", Map.of(), Map.of("CPU", "1"), Map.of()),
            base.resourceManager(),
            base.dump(),
            base.logger(),
            base.instrumentation(),
            base.controllerSections());
    h.startDaemon(h.options(false), config, new TopologyAwarePolicyProvider());
  }

  /** A Guaranteed pod with one container c of one whole CPU; the container's id. */
  private String guaranteed(String name) {
    PodSandboxConfig pod =
        PipelineHarness.podConfig(name, "uid-" + name, 0).toBuilder()
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent("/kubepods/pod" + name))
            .build();
    return h.createAndStart(h.runPod(pod, h.relay()), "c");
  }

  @Test
  void oneCpuGrantedTwiceInTheCacheIsGrantedOnceAfterTheStart() throws Exception {
    startDaemon();
    String a = guaranteed("a");
    String b = guaranteed("b");
    String cpusOfA = h.cpuset(a);
    assertNotEquals(cpusOfA, h.cpuset(b));
    h.stopDaemon();

    ObjectNode cache = (ObjectNode) JSON.readTree(Files.readString(h.cacheFile()));
    ((ObjectNode) cache.path("Containers").path("uid-b:c").path("Assignment")).put("CPUs", cpusOfA);
    ((ObjectNode)
            cache.path("PolicyData").path("topology-aware").path("allocations").path("uid-b:c"))
        .put("exclusive", cpusOfA);
    Files.writeString(h.cacheFile(), JSON.writeValueAsString(cache));

    startDaemon();
    h.barrier();
    CpuSet first = CpuSet.parse(h.cpuset(a));
    CpuSet second = CpuSet.parse(h.cpuset(b));
    assertEquals(1, first.size(), first.toString());
    assertEquals(1, second.size(), second.toString());
    assertFalse(first.intersects(second), first + " is given to both containers");
  }
}
