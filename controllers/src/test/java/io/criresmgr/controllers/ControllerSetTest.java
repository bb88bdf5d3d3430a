package io.criresmgr.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ControllerSetTest {
  private static final ControllerContext CONTEXT =
      new ControllerContext(Path.of("/"), Path.of("/sys/fs/cgroup"), Map.of());
  private static final Container CONTAINER =
      Container.builder()
          .cacheId("uid-p:c")
          .id("ctr-1")
          .podId("sandbox-p")
          .name("c")
          .namespace("default")
          .image("busybox")
          .state(ContainerState.RUNNING)
          .resources(Resources.NONE)
          .qosClass(QosClass.BEST_EFFORT)
          .seq(1)
          .build();

  private final List<String> calls = new ArrayList<>();
  private final LogCapture log = LogCapture.of(ControllerSet.class);

  @AfterEach
  void releaseLog() {
    log.close();
  }

  private RecordingController controller(String name) {
    return new RecordingController(name, calls);
  }

  private List<String> warnings() {
    return log.messages(Level.WARN);
  }

  private ControllerSet configured(Map<String, ControllerMode> modes, Controller... controllers) {
    ControllerSet set = new ControllerSet(List.of(controllers));
    set.configure(modes, CONTEXT);
    calls.clear();
    return set;
  }

  @Test
  void controllersRunInNameOrder() {
    ControllerSet set =
        configured(Map.of(), controller("rdt"), controller("blockio"), controller("cri"));
    assertEquals(List.of("blockio", "cri", "rdt"), set.names());
    set.postStart(CONTAINER);
    assertEquals(
        List.of("blockio.postStart uid-p:c", "cri.postStart uid-p:c", "rdt.postStart uid-p:c"),
        calls);
  }

  @Test
  void duplicateNamesAreRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ControllerSet(List.of(controller("cri"), controller("cri"))));
    assertEquals("duplicate controller name \"cri\"", e.getMessage());
  }

  @Test
  void unknownNamesAreRejectedWithTheKnownOnes() {
    ControllerSet set = new ControllerSet(List.of(controller("rdt"), controller("cri")));
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () -> set.configure(Map.of("rtd", ControllerMode.REQUIRED), CONTEXT));
    assertEquals(
        "resource-manager.control.Controllers: unknown controller \"rtd\", expected one of cri,"
            + " rdt",
        e.getMessage());
    assertEquals(List.of(), calls);
  }

  @Test
  void unlistedControllersAreRelaxedAndStarted() {
    ControllerSet set = new ControllerSet(List.of(controller("cri")));
    set.configure(Map.of(), CONTEXT);
    assertEquals(List.of("cri.start"), calls);
    assertEquals(Set.of("cri"), set.running());
    assertEquals(ControllerMode.RELAXED, ControllerSet.DEFAULT_MODE);
  }

  @Test
  void aRequiredControllerThatCannotStartFailsAndChangesNothing() {
    ControllerSet set =
        new ControllerSet(
            List.of(controller("a"), controller("b").failing("start"), controller("c")));
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () ->
                set.configure(
                    Map.of("a", ControllerMode.REQUIRED, "b", ControllerMode.REQUIRED), CONTEXT));
    assertEquals("required controller b cannot start: boom", e.getMessage());
    assertEquals(List.of("a.start", "b.start", "a.stop"), calls);
    assertEquals(Set.of(), set.running());
  }

  @Test
  void optionalAndRelaxedControllersThatCannotStartAreNotRunning() {
    ControllerSet set =
        configured(
            Map.of("opt", ControllerMode.OPTIONAL),
            controller("opt").failing("start"),
            controller("rel").failing("start"),
            controller("ok"));
    assertEquals(Set.of("ok"), set.running());
    assertEquals(
        List.of(
            "controller opt cannot start, disabled (optional mode): boom",
            "controller rel cannot start, disabled (relaxed mode): boom"),
        warnings());
    set.postUpdate(CONTAINER);
    assertEquals(List.of("ok.postUpdate uid-p:c"), calls);
  }

  @Test
  void aRelaxedHookFailureIsLoggedAndTheRunContinues() {
    ControllerSet set =
        configured(
            Map.of(),
            controller("a").failing("postStop"),
            controller("b").failing("postStop").failingWith(new IllegalStateException("bug")),
            controller("c"));
    assertEquals(Set.of("c"), set.postStop(CONTAINER));
    assertEquals(List.of("a.postStop uid-p:c", "b.postStop uid-p:c", "c.postStop uid-p:c"), calls);
    assertEquals(
        List.of(
            "post-stop hook of controller a failed for uid-p:c: boom",
            "post-stop hook of controller b failed for uid-p:c: java.lang.IllegalStateException:"
                + " bug"),
        warnings());
  }

  @Test
  void aRequiredOrOptionalHookFailureIsThrownAndStopsTheRun() {
    for (ControllerMode mode : List.of(ControllerMode.REQUIRED, ControllerMode.OPTIONAL)) {
      calls.clear();
      ControllerSet set =
          configured(
              Map.of("b", mode),
              controller("a"),
              controller("b").failing("preCreate"),
              controller("c"));
      ControllerException e =
          assertThrows(
              ControllerException.class, () -> set.preCreate(CONTAINER, new ContainerEdits()));
      assertEquals("controller b (pre-create): boom", e.getMessage());
      assertEquals(List.of("a.preCreate uid-p:c", "b.preCreate uid-p:c"), calls);
    }
  }

  @Test
  void aDisabledControllerNeverRuns() {
    ControllerSet set =
        configured(Map.of("off", ControllerMode.DISABLED), controller("off"), controller("on"));
    assertEquals(Set.of("on"), set.postStart(CONTAINER));
    assertEquals(Set.of("on"), set.postUpdate(CONTAINER));
    assertEquals(List.of("on.postStart uid-p:c", "on.postUpdate uid-p:c"), calls);
  }

  @Test
  void disablingARunningControllerStopsIt() {
    ControllerSet set = configured(Map.of(), controller("a"), controller("b"));
    set.configure(Map.of("a", ControllerMode.DISABLED), CONTEXT);
    assertEquals(List.of("a.stop"), calls);
    assertEquals(Set.of("b"), set.running());
    set.stopAll();
    assertEquals(List.of("a.stop", "b.stop"), calls);
    assertEquals(Set.of(), set.running());
  }

  @Test
  void aFailureToStopIsLoggedAndTheControllerCountsAsStopped() {
    ControllerSet set = configured(Map.of(), controller("a").failing("stop"), controller("b"));
    set.stopAll();
    assertEquals(List.of("a.stop", "b.stop"), calls);
    assertEquals(Set.of(), set.running());
    assertEquals(List.of("controller a failed to stop: boom"), warnings());
  }

  @Test
  void hooksReturnTheControllersThatSucceeded() {
    ControllerSet set =
        configured(
            Map.of(), controller("a"), controller("b").failing("postUpdate"), controller("c"));
    assertEquals(Set.of("a", "b", "c"), set.preCreate(CONTAINER, new ContainerEdits()));
    assertEquals(Set.of("a", "c"), set.postUpdate(CONTAINER));
  }

  @Test
  void stateChangesAreLoggedOnce() {
    ControllerSet set = new ControllerSet(List.of(controller("a")));
    set.configure(Map.of("a", ControllerMode.REQUIRED), CONTEXT);
    set.configure(Map.of("a", ControllerMode.REQUIRED), CONTEXT);
    set.configure(Map.of("a", ControllerMode.DISABLED), CONTEXT);
    assertEquals(
        List.of(
            "controller a is now running, mode required",
            "controller a is now stopped, mode disabled"),
        log.messages(Level.INFO));
  }

  private static ControllerContext withSections(String... names) {
    Map<String, com.fasterxml.jackson.databind.JsonNode> sections = new java.util.TreeMap<>();
    for (String n : names) {
      sections.put(n, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
    }
    return CONTEXT.withSections(sections);
  }

  @Test
  void changedSectionsReconfigureRunningControllersOnly() {
    ControllerSet set =
        configured(
            Map.of("c", ControllerMode.DISABLED),
            controller("a"),
            controller("b"),
            controller("c"));
    set.configure(Map.of("c", ControllerMode.DISABLED), CONTEXT);
    assertEquals(List.of(), calls, "same sections: nothing to do");
    set.configure(Map.of("c", ControllerMode.DISABLED), withSections("rdt"));
    assertEquals(List.of("a.reconfigure rdt", "b.reconfigure rdt"), calls);
  }

  @Test
  void aRefusedReconfigurationRestoresTheOthersAndChangesNothing() {
    ControllerSet set =
        configured(
            Map.of("b", ControllerMode.OPTIONAL),
            controller("a"),
            controller("b").failing("reconfigure"),
            controller("c"));
    Map<String, ControllerMode> next =
        Map.of("b", ControllerMode.OPTIONAL, "c", ControllerMode.DISABLED);
    ControllerException e =
        assertThrows(ControllerException.class, () -> set.configure(next, withSections("blockio")));
    assertEquals("controller b refuses the configuration: boom", e.getMessage());
    assertEquals(
        List.of(
            "a.reconfigure blockio", "b.reconfigure blockio", "a.reconfigure ", "b.reconfigure "),
        calls);
    assertEquals(Set.of("a", "b", "c"), set.running(), "c was not disabled");
    calls.clear();
    assertThrows(
        ControllerException.class, () -> set.configure(next, withSections("blockio", "rdt")));
    assertEquals(
        List.of(
            "a.reconfigure blockio,rdt",
            "b.reconfigure blockio,rdt",
            "a.reconfigure ",
            "b.reconfigure "),
        calls,
        "the context before the refused one is still the applied one");
  }

  @Test
  void aRelaxedControllerThatRefusesTheSectionsIsRestartedNotRefusing() {
    ControllerSet set =
        configured(Map.of(), controller("a").failing("reconfigure"), controller("b"));
    set.configure(Map.of(), withSections("rdt"));
    assertEquals(List.of("a.reconfigure rdt", "a.stop", "b.reconfigure rdt", "a.start"), calls);
    assertEquals(Set.of("a", "b"), set.running(), "a started again with the new sections");
  }

  @Test
  void aRefusedReconfigurationStopsTheRequiredControllersThisCallStarted() {
    ControllerSet set =
        configured(
            Map.of("a", ControllerMode.DISABLED, "b", ControllerMode.OPTIONAL),
            controller("a"),
            controller("b").failing("reconfigure"));
    assertThrows(
        ControllerException.class,
        () ->
            set.configure(
                Map.of("a", ControllerMode.REQUIRED, "b", ControllerMode.OPTIONAL),
                withSections("rdt")));
    assertEquals(List.of("a.start", "b.reconfigure rdt", "b.reconfigure ", "a.stop"), calls);
    assertEquals(Set.of("b"), set.running());
  }

  @Test
  void cpuClassFailuresAreLoggedWhateverTheMode() {
    ControllerSet set =
        configured(
            Map.of("a", ControllerMode.REQUIRED),
            controller("a").failing("cpuClassesChanged"),
            controller("b"));
    set.cpuClassesChanged(Map.of("turbo", io.criresmgr.cache.CpuSet.of(1)));
    assertEquals(List.of("a.cpuClassesChanged {turbo=1}", "b.cpuClassesChanged {turbo=1}"), calls);
    assertEquals(List.of("controller a cannot apply CPU classes: boom"), warnings());
  }

  @Test
  void preUpdateFailuresFollowTheMode() {
    ControllerSet set =
        configured(
            Map.of("a", ControllerMode.RELAXED, "b", ControllerMode.REQUIRED),
            controller("a").failing("preUpdate"),
            controller("b"));
    assertEquals(Set.of("b"), set.preUpdate(CONTAINER, new ContainerEdits()));
    set.configure(Map.of("a", ControllerMode.REQUIRED), CONTEXT);
    ControllerException e =
        assertThrows(
            ControllerException.class, () -> set.preUpdate(CONTAINER, new ContainerEdits()));
    assertEquals("controller a (pre-update): boom", e.getMessage());
  }
}
