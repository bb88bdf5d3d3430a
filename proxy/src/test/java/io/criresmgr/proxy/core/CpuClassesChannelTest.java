package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.controllers.CpuClassesListener;
import io.criresmgr.controllers.cpu.CpuController;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.balloons.BalloonsPolicyProvider;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.policy.topologyaware.TopologyAwarePolicyProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The balloons policy's CPU classes travel through {@link Section} to every running controller,
 * once per change, and the cpu controller writes them to a fake cpufreq tree.
 */
class CpuClassesChannelTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BALLOONS =
      "{'IdleCPUClass': 'idle', 'BalloonTypes': [{'Name': 'fast', 'MinCPUs': 2, 'MaxCPUs': 2,"
          + " 'MinBalloons': 1, 'CPUClass': 'turbo'}]}";
  private static final String CPU =
      "{'classes': {'turbo': {'minFreq': 3000000, 'maxFreq': 3600000},"
          + " 'idle': {'minFreq': 800000, 'maxFreq': 1000000}}}";

  @TempDir Path root;

  @BeforeEach
  void fakeHost() throws IOException {
    FakeSysfsWriter.write(TopologySpec.builtIn("n4c16"), root);
    for (int cpu = 0; cpu < 16; cpu++) {
      Path dir = root.resolve("sys/devices/system/cpu/cpu" + cpu + "/cpufreq");
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("scaling_min_freq"), "800000\n");
      Files.writeString(dir.resolve("scaling_max_freq"), "3600000\n");
    }
  }

  private final List<Map<String, CpuSet>> changes = new ArrayList<>();

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text.replace('\'', '"'));
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  private Section section(NodeCache cache) throws IOException {
    BalloonsPolicyProvider provider = new BalloonsPolicyProvider();
    return section(
        cache, "balloons", provider.create(context(), provider.parseOptions(json(BALLOONS))));
  }

  private PolicyContext context() {
    return new PolicyContext(
        root, CpuSet.range(0, 15), CpuSet.range(0, 3), Map.of(), Map.of("CPU", "cpuset:0"));
  }

  private Section section(NodeCache cache, String name, Policy policy) throws IOException {
    class Recorder implements Controller, CpuClassesListener {
      @Override
      public String name() {
        return "recorder";
      }

      @Override
      public void cpuClassesChanged(Map<String, CpuSet> classes) {
        changes.add(classes);
      }
    }
    Controller recorder = new Recorder();
    ControllerSet controllers = new ControllerSet(List.of(new CpuController(), recorder));
    Section section = new Section(cache, new ActivePolicy(name, policy), controllers);
    controllers.configure(
        Map.of(),
        new ControllerContext(
            root, root.resolve("sys/fs/cgroup"), Map.of("cpu", json(CPU)), section));
    return section;
  }

  private String scaling(int cpu) throws IOException {
    Path dir = root.resolve("sys/devices/system/cpu/cpu" + cpu + "/cpufreq");
    return Files.readString(dir.resolve("scaling_min_freq")).strip()
        + ".."
        + Files.readString(dir.resolve("scaling_max_freq")).strip();
  }

  @Test
  void balloonsClassesReachTheControllersOncePerChangeAndTheCpuControllerWritesThem()
      throws IOException {
    NodeCache cache = new NodeCache();
    Section section = section(cache);
    section.decide(p -> p.start(cache), Set.of());
    section.decide(p -> p.rebalance(cache), Set.of());

    assertEquals(1, changes.size(), changes::toString);
    Map<String, CpuSet> classes = changes.get(0);
    assertEquals(Set.of("turbo", "idle"), classes.keySet());
    CpuSet turbo = classes.get("turbo");
    assertEquals(2, turbo.size());
    assertEquals(CpuSet.range(1, 15).difference(turbo), classes.get("idle"));
    assertEquals(classes, section.cpuClasses());
    for (int cpu : turbo.stream().toArray()) {
      assertEquals("3000000..3600000", scaling(cpu));
    }
    for (int cpu : classes.get("idle").stream().toArray()) {
      assertEquals("800000..1000000", scaling(cpu));
    }
    // The reserved CPU is in no class: left alone.
    assertEquals("800000..3600000", scaling(0));
  }

  @Test
  void topologyAwareClassesReachTheCpuController() throws IOException {
    NodeCache cache = new NodeCache();
    TopologyAwarePolicyProvider provider = new TopologyAwarePolicyProvider();
    Policy policy =
        provider.create(
            context(),
            provider.parseOptions(
                json("{'ReservedPoolCPUClass': 'idle', 'SharedPoolCPUClass': 'turbo'}")));
    Section section = section(cache, "topology-aware", policy);
    section.decide(p -> p.start(cache), Set.of());

    assertEquals(List.of(Map.of("idle", CpuSet.of(0), "turbo", CpuSet.range(1, 15))), changes);
    assertEquals("800000..1000000", scaling(0));
    for (int cpu = 1; cpu < 16; cpu++) {
      assertEquals("3000000..3600000", scaling(cpu));
    }
  }
}
