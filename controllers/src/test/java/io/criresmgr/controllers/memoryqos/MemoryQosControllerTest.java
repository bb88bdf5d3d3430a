package io.criresmgr.controllers.memoryqos;

import static io.criresmgr.controllers.memoryqos.MemoryQosFixture.creating;
import static io.criresmgr.controllers.memoryqos.MemoryQosFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.Container;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.controllers.FakeNode;
import io.criresmgr.controllers.LogCapture;
import io.criresmgr.controllers.cgroups.FakeCgroupTree;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The controller's request hooks on a cgroup v2 host: what reaches CRI requests, and errors. */
class MemoryQosControllerTest {
  static final long M100 = 100_000_000L;

  /** The documented example section: bronze 0.5, silver 0.2, two files allowed. */
  static final String SAMPLE =
      """
      {"classes": [{"name": "bronze", "swaplimitratio": 0.5},
                   {"name": "silver", "swaplimitratio": 0.2}],
       "unifiedannotations": ["memory.swap.max", "memory.high"]}
      """;

  @TempDir Path dir;
  private final FakeNode node = new FakeNode();
  private final MemoryQosController controller = new MemoryQosController();
  private final LogCapture log = LogCapture.of(MemoryQosController.class, ControllerSet.class);

  @AfterEach
  void releaseLog() {
    log.close();
  }

  static JsonNode json(String text) {
    try {
      return new ObjectMapper().readTree(text);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** A context on a fake v2 host enabling memory, with {@code sections}. */
  ControllerContext context(Map<String, JsonNode> sections) {
    Path mount = FakeCgroupTree.v2(dir.resolve("cgroup"), "cpuset cpu io memory hugetlb pids").root;
    return new ControllerContext(dir, mount, sections, node);
  }

  ControllerContext sample() {
    return context(Map.of(MemoryQosConfig.SECTION, json(SAMPLE)));
  }

  Map<String, String> preCreate(Container c) {
    ContainerEdits edits = new ContainerEdits();
    controller.preCreate(c, edits);
    return edits.unified();
  }

  @Test
  void theManualTestPodOfNriPluginsGetsItsFiles() {
    node.add(pod("p", MemoryQosTest.TEST_POD));
    controller.start(sample());
    assertEquals(
        Map.of("memory.high", "50000000", "memory.swap.max", "max"),
        preCreate(creating("p", "c0-lowprio", M100)));
    assertEquals(
        Map.of("memory.high", "80000000", "memory.swap.max", "max"),
        preCreate(creating("p", "c1-normal", M100)));
    assertEquals(
        Map.of("memory.high", "max", "memory.swap.max", "0"),
        preCreate(creating("p", "c2-noswap", M100)),
        "direct annotations win over the class");
  }

  @ParameterizedTest(name = "limit {0}, ratio {1}: memory.high {2}")
  @CsvSource({
    "104857600, 0.2, 83886080",
    "1073741824, 0.2, 858993472",
    "1073741824, 0.1, 966367616",
    "123456789, 0.5, 61728396",
    "1000000007, 0.5, 500000000",
    "1073741824, 1.0, 0"
  })
  void memoryHighIsComputedInFloat32LikeTheOriginal(long limit, String ratio, String high) {
    node.add(pod("p", Map.of("class.memory-qos.nri.io", "c")));
    controller.start(
        context(
            Map.of(
                "memory-qos",
                json("{\"classes\": [{\"name\": \"c\", \"swaplimitratio\": " + ratio + "}]}"))));
    assertEquals(
        Map.of("memory.high", high, "memory.swap.max", "max"),
        preCreate(creating("p", "c", limit)));
  }

  @Test
  void containersWithoutAnnotationsOrPodAreLeftAlone() {
    node.add(pod("p", Map.of("app", "web")));
    controller.start(sample());
    assertEquals(Map.of(), preCreate(creating("p", "c", M100)));
    assertEquals(Map.of(), preCreate(creating("no-such-pod", "c", M100)));
  }

  @Test
  void withoutASectionAnnotationsAreIgnoredSilently() {
    node.add(
        pod(
            "p",
            Map.of("class.memory-qos.nri.io", "gold", "memory.oom.group.memory-qos.nri.io", "1")));
    controller.start(context(Map.of()));
    assertEquals(Map.of(), preCreate(creating("p", "c", 0)));
    assertEquals(List.of(), log.messages());
  }

  @Test
  void anUpdateRecomputesMemoryHighFromTheNewLimit() {
    node.add(pod("p", MemoryQosTest.TEST_POD));
    controller.start(sample());
    ContainerEdits edits = new ContainerEdits();
    controller.preUpdate(creating("p", "c0-lowprio", 2 * M100), edits);
    assertEquals(Map.of("memory.high", "100000000", "memory.swap.max", "max"), edits.unified());
  }

  @Test
  void memtierdSettingTheSameFileDifferentlyFailsNamingBoth() {
    node.add(pod("p", MemoryQosTest.TEST_POD));
    controller.start(sample());
    ContainerEdits edits = new ContainerEdits();
    controller.preCreate(creating("p", "c0-lowprio", M100), edits);
    edits.claimUnified("memtierd", "memory.swap.max", "max"); // the same value is fine
    ControllerException e =
        assertThrows(
            ControllerException.class, () -> edits.claimUnified("memtierd", "memory.high", "max"));
    assertEquals(
        "conflicting values for cgroup file memory.high: memory-qos sets \"50000000\", memtierd"
            + " sets \"max\"",
        e.getMessage());
  }

  @Test
  void ignoredAnnotationsAreWarnedOncePerPod() {
    node.add(pod("p", Map.of("class.memory-qos.nri.io/container.c1", "bronze")));
    controller.start(sample());
    preCreate(creating("p", "c1", M100));
    preCreate(creating("p", "c1", M100));
    controller.preUpdate(creating("p", "c1", 2 * M100), new ContainerEdits());
    assertEquals(
        List.of(
            "memory QoS of pod default/pod-p: class.memory-qos.nri.io/container.c1: ignored,"
                + " memory QoS annotations name the container as class.memory-qos.nri.io/c1"),
        log.messages(Level.WARN));
  }

  /** What each problem says after "memory QoS of container c: ". */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      textBlock =
          """
          unknown class | class.memory-qos.nri.io | gold | 100000000 | class.memory-qos.nri.io: unknown class "gold", expected one of bronze, silver
          disallowed file | memory.oom.group.memory-qos.nri.io | 1 | 100000000 | memory.oom.group.memory-qos.nri.io: file "memory.oom.group" may not be set by annotations, memory-qos.unifiedannotations allows memory.swap.max, memory.high
          no memory limit | class.memory-qos.nri.io | silver | 0 | class.memory-qos.nri.io: class "silver" (swaplimitratio 0.2) needs a memory limit, but the container has none: set resources.limits.memory or remove the class with class.memory-qos.nri.io/c: ""
          """)
  void problemsFailTheHook(String what, String key, String value, long limit, String problem) {
    node.add(pod("p", Map.of(key, value)));
    controller.start(sample());
    MemoryQosException e =
        assertThrows(MemoryQosException.class, () -> preCreate(creating("p", "c", limit)));
    assertEquals("memory QoS of container c: " + problem, e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(
      value = ControllerMode.class,
      names = {"REQUIRED", "OPTIONAL"})
  void inRequiredAndOptionalModeAProblemFailsTheRequest(ControllerMode mode) {
    node.add(pod("p", Map.of("class.memory-qos.nri.io", "gold")));
    ControllerSet set = new ControllerSet(List.of(controller));
    set.configure(Map.of("memory-qos", mode), sample());
    ContainerEdits edits = new ContainerEdits();
    ControllerException e =
        assertThrows(
            ControllerException.class, () -> set.preCreate(creating("p", "c", M100), edits));
    assertEquals(
        "controller memory-qos (pre-create): memory QoS of container c: class.memory-qos.nri.io:"
            + " unknown class \"gold\", expected one of bronze, silver",
        e.getMessage());
  }

  @Test
  void inRelaxedModeAProblemIsLoggedAndTheContainerCreatedWithoutFiles() {
    node.add(pod("p", Map.of("class.memory-qos.nri.io", "silver")));
    ControllerSet set = new ControllerSet(List.of(controller));
    set.configure(Map.of(), sample());
    ContainerEdits edits = new ContainerEdits();
    assertEquals(java.util.Set.of(), set.preCreate(creating("p", "c", 0), edits));
    assertEquals(Map.of(), edits.unified());
    assertEquals(
        List.of(
            "pre-create hook of controller memory-qos failed for uid-p:c: memory QoS of container"
                + " c: class.memory-qos.nri.io: class \"silver\" (swaplimitratio 0.2) needs a"
                + " memory limit, but the container has none: set resources.limits.memory or"
                + " remove the class with class.memory-qos.nri.io/c: \"\""),
        log.messages(Level.WARN));
  }
}
