package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.cache.StoredAdjustments;
import io.criresmgr.cache.adjustment.AdjustmentParser;
import io.criresmgr.cache.adjustment.AdjustmentSet;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.proxy.NoDecisions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link AdjustmentStep} against a policy whose every update moves all active containers to new
 * CPUs, and a controller that records what it enforced: later containers are adjusted on top of
 * what earlier updates decided for them, refusals and unexpected failures roll every container
 * back, and the set is stored only when in force.
 */
class AdjustmentStepTest {
  private static final String NODE = "n1";
  private final List<String> enforced = new ArrayList<>();
  private int moves;
  private RuntimeException failure = new PolicyException("no room");

  /** Moves every active container to CPU {@code 10 + moves}; fails above 10 CPUs requested. */
  private final Policy moving =
      new NoDecisions() {

        @Override
        public Decisions update(Container container, NodeState node) {
          if (container.adjustedResources().cpuRequestMilli() > 10_000) {
            throw failure;
          }
          moves++;
          List<Decisions.Update> updates = new ArrayList<>();
          for (Container c : node.containers()) {
            updates.add(
                new Decisions.Update(c.cacheId(), Assignment.NONE.withCpus(CpuSet.of(10 + moves))));
          }
          return Decisions.of(updates);
        }
      };

  private Section section() {
    Controller recorder =
        new Controller() {
          @Override
          public String name() {
            return "recorder";
          }

          @Override
          public void postUpdate(Container c) {
            enforced.add(c.name() + "@" + c.assignment().cpus() + "/" + c.adjustment().rdtClass());
          }
        };
    ControllerSet controllers = new ControllerSet(List.of(recorder));
    Section s = new Section(new NodeCache(), new ActivePolicy("moving", moving), controllers);
    controllers.configure(
        Map.of(), new ControllerContext(Path.of("/"), Path.of("/"), Map.of()).withNode(s));
    s.cache()
        .putPod(
            new Pod(
                "p",
                "uid-p",
                "web",
                "default",
                Map.of(),
                Map.of(),
                "/kubepods/burstable/poduid-p",
                QosClass.BURSTABLE,
                PodResources.NONE,
                true));
    s.put(container("a", 1));
    s.put(container("b", 2));
    return s;
  }

  private static Container container(String name, long seq) {
    return Container.builder()
        .cacheId("uid-p:" + name)
        .id("id-" + name)
        .podId("p")
        .name(name)
        .namespace("default")
        .image("img")
        .state(ContainerState.RUNNING)
        .resources(new Resources(500, 0, 0, 0))
        .qosClass(QosClass.BURSTABLE)
        .assignment(Assignment.NONE.withCpus(CpuSet.of(0)))
        .seq(seq)
        .build();
  }

  private static String spec(String container, String body) {
    return "{\"scope\":[{\"nodes\":[\"n*\"],\"containers\":[{\"key\":\"name\","
        + "\"operator\":\"Equals\",\"values\":[\""
        + container
        + "\"]}]}],"
        + body
        + "}";
  }

  private static final String GROW_A =
      spec("a", "\"resources\":{\"requests\":{\"cpu\":\"2\"},\"limits\":{\"cpu\":\"2\"}}");
  private static final String GOLD_B = spec("b", "\"classes\":{\"rdt\":\"gold\"}");

  private static Map<String, String> apply(Section s, String json) throws Exception {
    AdjustmentSet set = AdjustmentParser.parse(NODE, json);
    return AdjustmentStep.apply(s, set, new StoredAdjustments(NODE, json));
  }

  private static Container get(Section s, String name) {
    return s.cache().container("uid-p:" + name).orElseThrow();
  }

  @Test
  void aLaterContainerKeepsWhatAnEarlierUpdateDecidedForIt() throws Exception {
    Section s = section();
    String json = "{\"grow\":" + GROW_A + ",\"gold\":" + GOLD_B + "}";
    assertEquals(Map.of(), apply(s, json));
    // a's update moved both to CPU 11; b's class-only change must not put its old CPU 0 back.
    assertEquals(CpuSet.of(11), get(s, "b").assignment().cpus());
    assertEquals("gold", get(s, "b").adjustment().rdtClass());
    assertEquals(2000, get(s, "a").adjustedResources().cpuRequestMilli());
    assertEquals(500, get(s, "a").resources().cpuRequestMilli(), "the pod's own request stays");
    assertEquals(List.of("b@11/", "a@11/", "b@11/gold"), enforced);
    assertEquals(Optional.of(new StoredAdjustments(NODE, json)), s.cache().adjustments());
    assertEquals(Set.of("gold", "grow"), s.adjustments().specs().keySet());
  }

  @Test
  void aRefusalRollsBackContainersAdjustedBeforeIt() throws Exception {
    Section s = section();
    String huge = spec("b", "\"resources\":{\"requests\":{\"cpu\":\"20\"}}");
    Map<String, String> errors = apply(s, "{\"grow\":" + GROW_A + ",\"huge\":" + huge + "}");
    assertEquals(Set.of("id-b"), errors.keySet());
    assertTrue(
        errors.get("id-b").startsWith("policy moving cannot apply adjustment huge to default/"),
        errors.toString());
    assertEquals(Adjustment.NONE, get(s, "a").adjustment());
    assertEquals(Adjustment.NONE, get(s, "b").adjustment());
    assertEquals(500, get(s, "a").adjustedResources().cpuRequestMilli());
    assertEquals(Optional.empty(), s.cache().adjustments());
    assertEquals(AdjustmentSet.EMPTY, s.adjustments());
  }

  @Test
  void anUnexpectedFailureRollsBackToo() throws Exception {
    failure = new IllegalStateException("bug");
    Section s = section();
    String huge = spec("b", "\"resources\":{\"requests\":{\"cpu\":\"20\"}}");
    Map<String, String> errors = apply(s, "{\"grow\":" + GROW_A + ",\"huge\":" + huge + "}");
    assertEquals(Set.of("id-b"), errors.keySet());
    assertTrue(errors.get("id-b").endsWith(": bug"), errors.toString());
    assertEquals(Adjustment.NONE, get(s, "a").adjustment());
    assertEquals(Optional.empty(), s.cache().adjustments());
  }

  @Test
  void aConflictChangesNothing() throws Exception {
    Section s = section();
    Map<String, String> errors =
        apply(
            s,
            "{\"grow\":"
                + GROW_A
                + ",\"also\":"
                + spec("a", "\"classes\":{\"blockio\":\"x\"}")
                + "}");
    assertEquals(
        Map.of(
            "id-a",
            "conflicting adjustments for default/web:a: also, grow; at most one may apply to a"
                + " container"),
        errors);
    assertEquals(Adjustment.NONE, get(s, "a").adjustment());
    assertEquals(0, moves);
    assertEquals(List.of(), enforced);
  }
}
