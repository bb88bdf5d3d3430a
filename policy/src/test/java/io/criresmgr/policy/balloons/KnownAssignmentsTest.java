package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link BalloonAssignments#decide} with what it remembers of earlier calls ({@link
 * KnownAssignments}) gives the updates a new instance, which works out every container, gives: a
 * seeded random run of balloons resized, created, deleted and changing containers (one now and then
 * in two balloons), of containers created, removed, stopped, started and re-assigned, of pods
 * re-annotated (hide-hyperthreads, memory-type and memory.preserve; malformed annotations included)
 * and removed, of decisions applied or rolled back and of calls with an older list of balloons
 * (from any earlier step), the list reordered or with one balloon twice, compared after every step.
 */
class KnownAssignmentsTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  private static final String HIDE = "hide-hyperthreads.resource-policy.nri.io";
  private static final String MEMORY_TYPE = "memory-type.resource-policy.nri.io";
  private static final String PRESERVE = "memory.preserve.resource-policy.nri.io/container.";
  private static final String TYPES =
      """
      BalloonTypes:
        - Name: plain
        - Name: hiding
          HideHyperthreads: true
        - Name: sharing
          ShareIdleCPUsInSame: numa
        - Name: mem
          PinMemory: true
          ShareIdleCPUsInSame: package
      """;
  private static final List<String> TYPE_NAMES = List.of("plain", "hiding", "sharing", "mem");
  private static final int STEPS = 3000;
  private static final int PODS = 8;
  private static final int CONTAINERS = 24;

  private final BalloonsOptions options;
  private final Map<String, BalloonType> types;

  KnownAssignmentsTest() throws Exception {
    options = BalloonsOptionsTest.parse(TYPES);
    types =
        options.effectiveTypes().stream()
            .collect(Collectors.toMap(BalloonType::name, Function.identity(), (a, b) -> a));
  }

  private BalloonAssignments fresh() {
    return new BalloonAssignments(N4C16, options, types);
  }

  private BalloonSet set(List<Balloon> balloons) {
    return new BalloonSet(balloons, types, Map.of(), N4C16.onlineCpus(), CpuSet.EMPTY);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 20261128})
  void rememberedResultsAreTheResultsWorkedOutAfresh(long seed) {
    Random random = new Random(seed);
    NodeCache node = new NodeCache();
    BalloonAssignments remembering = fresh();
    List<Balloon> balloons = new ArrayList<>();
    List<List<Balloon>> history = new ArrayList<>();
    for (int step = 0; step < STEPS; step++) {
      String where = "seed " + seed + ", step " + step;
      int dice = random.nextInt(16);
      if (dice < 6) {
        changeBalloons(random, balloons);
      } else if (dice < 12) {
        changeNode(random, node, dice);
      }
      List<Balloon> now = balloons(random, balloons, history);
      history.add(List.copyOf(balloons));
      String subject = random.nextInt(3) == 0 ? id(random.nextInt(CONTAINERS)) : null;
      Object expected = decide(fresh(), now, node, subject);
      Object got = decide(remembering, now, node, subject);
      assertEquals(expected, got, where);
      if (got instanceof List<?> updates && random.nextInt(4) != 0) {
        Map<String, Assignment> applied = new LinkedHashMap<>();
        for (Object u : updates) {
          Decisions.Update update = (Decisions.Update) u;
          if (node.containerOrNull(update.cacheId()) != null) {
            applied.put(update.cacheId(), update.assignment());
          }
        }
        node.applyAssignments(applied, Set.of());
      }
    }
  }

  /**
   * The balloons of a call: mostly the current ones, now and then those of an earlier step (a
   * decision rolled back), reordered, or with one balloon twice (the last one holding a container
   * wins).
   */
  private static List<Balloon> balloons(
      Random random, List<Balloon> balloons, List<List<Balloon>> history) {
    int dice = random.nextInt(12);
    if (dice == 0 && !history.isEmpty()) {
      return history.get(random.nextInt(history.size()));
    }
    List<Balloon> now = new ArrayList<>(balloons);
    if (dice == 1) {
      Collections.shuffle(now, random);
    } else if (dice == 2 && !now.isEmpty()) {
      now.add(random.nextInt(now.size() + 1), now.get(random.nextInt(now.size())));
    }
    return List.copyOf(now);
  }

  /** The updates of a call, or the message of the exception it threw. */
  private Object decide(
      BalloonAssignments a, List<Balloon> balloons, NodeCache node, @Nullable String subject) {
    try {
      return a.decide(set(balloons), node, subject);
    } catch (PolicyException e) {
      return "failed: " + e.getMessage();
    }
  }

  private static void changeBalloons(Random random, List<Balloon> balloons) {
    int dice = random.nextInt(12);
    if (balloons.size() < 2 || dice == 0) {
      String type = TYPE_NAMES.get(random.nextInt(TYPE_NAMES.size()));
      balloons.add(Balloon.empty(type, balloons.size(), cpus(random), false));
      return;
    }
    int at = random.nextInt(balloons.size());
    Balloon b = balloons.get(at);
    String id = id(random.nextInt(CONTAINERS));
    if (dice == 1 && balloons.size() > 2) {
      balloons.remove(at);
    } else if (dice < 5) {
      balloons.set(at, b.withCpus(cpus(random)));
    } else if (dice < 8) {
      // mostly moved out of the other balloons, now and then left in two
      if (random.nextInt(6) != 0) {
        balloons.replaceAll(other -> other.without(id));
      }
      balloons.set(at, balloons.get(at).with(id, 100L * random.nextInt(4)));
    } else {
      balloons.set(at, b.without(id));
    }
  }

  /** Some CPUs of their own: balloons may overlap here, which changes nothing computed. */
  private static CpuSet cpus(Random random) {
    int from = random.nextInt(16);
    return CpuSet.range(from, Math.min(15, from + random.nextInt(4)));
  }

  private static void changeNode(Random random, NodeCache node, int dice) {
    int n = random.nextInt(CONTAINERS);
    String id = id(n);
    Container c = node.containerOrNull(id);
    if (dice == 6 || dice == 7) {
      if (c == null) {
        node.putContainer(container(node, n));
      } else {
        node.removeContainer(id);
      }
    } else if (dice == 8 && c != null) {
      ContainerState s = c.state().isActive() ? ContainerState.EXITED : ContainerState.RUNNING;
      node.putContainer(c.withState(s));
    } else if (dice == 9 && c != null) {
      node.putContainer(c.withAssignment(Assignment.NONE.withCpus(cpus(random)), Set.of()));
    } else if (dice == 10) {
      String[] values = {"", "true", "false", "maybe"};
      String value = values[random.nextInt(values.length)];
      Map<String, String> annotations = new HashMap<>();
      if (!value.isEmpty()) {
        annotations.put(HIDE, value);
      }
      String[] types = {"", "dram", "pmem", "hbm", "bogus"};
      String type = types[random.nextInt(types.length)];
      if (!type.isEmpty()) {
        annotations.put(MEMORY_TYPE, type);
      }
      if (random.nextInt(4) == 0) {
        annotations.put(PRESERVE + "c" + random.nextInt(CONTAINERS), "true");
      }
      node.putPod(pod(random.nextInt(PODS), annotations));
    } else {
      node.removePod("sandbox-p" + random.nextInt(PODS));
    }
  }

  private static String id(int n) {
    return Container.cacheId("uid-p" + n % PODS, "c" + n);
  }

  private static Container container(NodeCache node, int n) {
    return Container.builder()
        .cacheId(id(n))
        .podId("sandbox-p" + n % PODS)
        .name("c" + n)
        .namespace("default")
        .image("busybox")
        .state(ContainerState.RUNNING)
        .resources(new Resources(100, 0, 0, 0))
        .qosClass(QosClass.BURSTABLE)
        .seq(node.nextSeq())
        .build();
  }

  private static Pod pod(int n, Map<String, String> annotations) {
    return new Pod(
        "sandbox-p" + n,
        "uid-p" + n,
        "p" + n,
        "default",
        Map.of(),
        annotations,
        "/kubepods/podp" + n,
        QosClass.BURSTABLE,
        PodResources.NONE,
        true);
  }

  @Test
  void podsThatDifferAreFoundByIdAndObject() {
    Pod a = pod(1, Map.of());
    Pod b = pod(2, Map.of());
    Pod b2 = pod(2, Map.of(HIDE, "true"));
    Pod c = pod(3, Map.of());
    Set<String> out = new TreeSet<>();
    KnownAssignments.diff(List.of(a, b, c), List.of(a, b, c), out);
    assertTrue(out.isEmpty());
    KnownAssignments.diff(List.of(a, b), List.of(b2, c), out);
    assertEquals(Set.of("sandbox-p1", "sandbox-p2", "sandbox-p3"), out);
    out.clear();
    KnownAssignments.diff(List.of(), List.of(a), out);
    assertEquals(Set.of("sandbox-p1"), out);
  }

  @Test
  void onlyTheContainersOfChangedBalloonsAreMarked() {
    KnownAssignments known = new KnownAssignments();
    Balloon one = Balloon.empty("plain", 0, CpuSet.of(1), false).with("a", 10).with("b", 20);
    Balloon two = Balloon.empty("plain", 1, CpuSet.of(2), false).with("c", 30);
    CpuSet[] cpus = {one.cpus(), two.cpus()};
    known.begin(List.of(one, two), cpus, List.of(), 3);
    assertEquals(List.of(0, 1), known.changed());
    Balloon more = two.with("d", 40);
    known.begin(List.of(one, more), new CpuSet[] {one.cpus(), more.cpus()}, List.of(), 4);
    assertEquals(List.of(1), known.changed());
    assertEquals(known.call(), known.entry("d").changedIn);
    assertEquals(40, known.entry("d").changedMilli);
    assertEquals(known.call() - 1, known.entry("a").changedIn, "marked in the first call only");
    // the shared idle CPUs changed: its containers may get other CPUs
    known.begin(List.of(one, more), new CpuSet[] {CpuSet.of(1, 5), more.cpus()}, List.of(), 4);
    assertEquals(List.of(0), known.changed());
    known.reset();
    assertEquals(0, known.size());
  }

  /** Many containers, one request changed: a second call finds what a first call found. */
  @Test
  void aSecondCallWithNothingChangedGivesTheSameUpdates() {
    NodeCache node = new NodeCache();
    for (int n = 0; n < PODS; n++) {
      node.putPod(pod(n, Map.of()));
    }
    Balloon b = Balloon.empty("plain", 0, CpuSet.of(4, 5), false);
    Map<String, Long> requests = new HashMap<>();
    for (int n = 0; n < CONTAINERS; n++) {
      node.putContainer(container(node, n));
      requests.put(id(n), 100L * (n % 3));
    }
    for (Map.Entry<String, Long> r : requests.entrySet()) {
      b = b.with(r.getKey(), r.getValue());
    }
    BalloonAssignments a = fresh();
    List<Decisions.Update> first = a.decide(set(List.of(b)), node, null);
    assertEquals(CONTAINERS, first.size());
    assertEquals(first, a.decide(set(List.of(b)), node, null), "not applied: asked again");
    Map<String, Assignment> applied = new LinkedHashMap<>();
    first.forEach(u -> applied.put(u.cacheId(), u.assignment()));
    node.applyAssignments(applied, Set.of());
    assertEquals(List.of(), a.decide(set(List.of(b)), node, null));
  }
}
