package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.cache.Assignment;
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
import java.util.Optional;
import java.util.Set;
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

  private static io.criresmgr.cache.Container container(String cacheId, Set<String> pending) {
    return io.criresmgr.cache.Container.builder()
        .cacheId(cacheId)
        .id("ctr-" + cacheId)
        .podId("p")
        .name(cacheId.substring(cacheId.indexOf(':') + 1))
        .namespace("default")
        .image("img")
        .state(io.criresmgr.cache.ContainerState.RUNNING)
        .resources(io.criresmgr.cache.Resources.NONE)
        .qosClass(io.criresmgr.cache.QosClass.BEST_EFFORT)
        .pending(pending)
        .seq(1)
        .build();
  }

  @Test
  void decisionsNamingAnUnknownContainerChangeNothing() {
    Section s = section();
    s.cache().putContainer(container("uid-p:a", Set.of()));
    s.cache().putContainer(container("uid-p:b", Set.of()));
    Assignment moved = Assignment.of(CpuSet.of(1), CpuSet.of(0));
    JsonNode data = JsonNodeFactory.instance.objectNode().put("grants", 2);
    Decisions decisions =
        new Decisions(
            List.of(
                new Decisions.Update("uid-p:a", moved),
                new Decisions.Update("uid-p:gone", moved),
                new Decisions.Update("uid-p:b", moved)),
            Optional.of(data));
    var before = s.cache().snapshot();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> s.apply(decisions));
    assertEquals("assignment for unknown container uid-p:gone", e.getMessage());
    assertEquals(before, s.cache().snapshot(), "no assignment, mark or policy data applied");
    assertEquals(
        List.of("uid-p:a", "uid-p:b"),
        s.apply(
            Decisions.of(
                List.of(
                    new Decisions.Update("uid-p:a", moved),
                    new Decisions.Update("uid-p:b", moved)))),
        "the same decision without the unknown id applies");
  }

  @Test
  void pendingMarksOfControllersThatDoNotRunAreDropped() {
    Section s = section();
    s.cache().putContainer(container("uid-p:c", Set.of("cpu", "rdt")));
    s.configureControllers(
        Map.of(), new ControllerContext(Path.of("/"), Path.of("/"), Map.of()).withNode(s));
    assertEquals(
        Set.of("cpu"),
        s.cache().container("uid-p:c").orElseThrow().pending(),
        "rdt does not run here: nothing would ever clear its mark");
  }
}
