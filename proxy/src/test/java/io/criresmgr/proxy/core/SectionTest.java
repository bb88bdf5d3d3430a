package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.controllers.CpuClassesListener;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.none.NonePolicyProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SectionTest {
  private final List<Map<String, CpuSet>> seen = new ArrayList<>();

  private Section section() {
    class Recorder implements Controller, CpuClassesListener {
      @Override
      public String name() {
        return "cpu";
      }

      @Override
      public void cpuClassesChanged(Map<String, CpuSet> classes) {
        seen.add(classes);
      }
    }
    Controller cpu = new Recorder();
    ControllerSet controllers = new ControllerSet(List.of(cpu));
    Section s =
        new Section(
            new NodeCache(),
            new ActivePolicy(
                "none",
                new NonePolicyProvider()
                    .create(
                        new PolicyContext(
                            Path.of("/"), CpuSet.of(0), CpuSet.of(0), Map.of(), Map.of()),
                        PolicyOptions.NONE)),
            controllers);
    controllers.configure(
        Map.of(), new ControllerContext(Path.of("/"), Path.of("/"), Map.of()).withNode(s));
    return s;
  }

  private static Decisions classes(String name, int... cpus) {
    TreeMap<String, CpuSet> m = new TreeMap<>();
    m.put(name, CpuSet.of(cpus));
    return Decisions.NONE.withCpuClasses(m);
  }

  @Test
  void cpuClassesReachControllersOnlyWhenTheyChange() {
    Section s = section();
    s.apply(Decisions.NONE);
    s.apply(classes("turbo", 2, 3));
    s.apply(classes("turbo", 2, 3));
    s.apply(Decisions.NONE);
    s.apply(classes("turbo", 3));
    assertEquals(List.of(Map.of("turbo", CpuSet.of(2, 3)), Map.of("turbo", CpuSet.of(3))), seen);
    assertEquals(Map.of("turbo", CpuSet.of(3)), s.cpuClasses(), "controllers read them too");
  }

  @Test
  void pendingMarksOfControllersThatDoNotRunAreDropped() {
    Section s = section();
    s.cache()
        .putContainer(
            io.criresmgr.cache.Container.builder()
                .cacheId("uid-p:c")
                .id("ctr")
                .podId("p")
                .name("c")
                .namespace("default")
                .image("img")
                .state(io.criresmgr.cache.ContainerState.RUNNING)
                .resources(io.criresmgr.cache.Resources.NONE)
                .qosClass(io.criresmgr.cache.QosClass.BEST_EFFORT)
                .pending(java.util.Set.of("cpu", "rdt"))
                .seq(1)
                .build());
    s.configureControllers(
        Map.of(), new ControllerContext(Path.of("/"), Path.of("/"), Map.of()).withNode(s));
    assertEquals(
        java.util.Set.of("cpu"),
        s.cache().container("uid-p:c").orElseThrow().pending(),
        "rdt does not run here: nothing would ever clear its mark");
  }
}
