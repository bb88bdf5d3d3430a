package io.criresmgr.policy.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The invariants every built-in policy keeps, on generated topologies and generated sequences of
 * creates, exits and resizes applied as the pipeline applies decisions, checked after every step:
 * no CPU is held exclusively by two containers or by a container and anyone else, exclusive grants
 * fit the CPUs that are not reserved and stay off the reserved CPU, every assigned CPU is online,
 * and once everything is released the policy places a new container as a fresh policy would.
 *
 * <p>Each case is generated from its seed (a failure names it, and the failing step), so a failure
 * replays exactly. The seeds are fixed: the same cases run everywhere, and a new seed range is a
 * one-line change (docs/fuzzing.md).
 */
class PolicyInvariantsTest {
  /** How many generated cases each policy runs. */
  private static final int CASES = 25;

  static LongStream seeds() {
    return LongStream.range(1, CASES + 1);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void templateKeepsItsInvariants(long seed) throws Exception {
    check(PolicyKind.TEMPLATE, seed);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void topologyAwareKeepsItsInvariants(long seed) throws Exception {
    check(PolicyKind.TOPOLOGY_AWARE, seed);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void balloonsKeepsItsInvariants(long seed) throws Exception {
    check(PolicyKind.BALLOONS, seed);
  }

  private static void check(PolicyKind kind, long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    TopologySpec spec = topology(random);
    List<Step> steps = steps(random);
    try {
      check(kind, spec, steps);
    } catch (AssertionError e) {
      throw new AssertionError("seed " + seed + ", " + spec + ", steps " + steps + ": " + e, e);
    }
  }

  private static void check(PolicyKind kind, TopologySpec spec, List<Step> steps) throws Exception {
    try (Node node = new Node(kind, spec)) {
      for (Step step : steps) {
        node.run(step);
        checkState(node, step);
      }
      node.releaseAll();
      checkNoResidue(node, spec);
    }
  }

  private static void checkState(Node node, Step step) {
    List<Container> active = node.active();
    int exclusive = 0;
    for (Container c : active) {
      CpuSet cpus = c.assignment().cpus();
      assertTrue(node.online.containsAll(cpus), step + ": " + c + " has CPUs that are not online");
      if (node.kind.keepsOffReserved()) {
        assertFalse(cpus.intersects(Node.RESERVED), step + ": " + c + " has the reserved CPU");
      }
      if (node.kind.holdsExclusively(c)) {
        exclusive += cpus.size();
        for (Container other : active) {
          assertTrue(
              other.cacheId().equals(c.cacheId()) || !other.assignment().cpus().intersects(cpus),
              step + ": " + other + " uses CPUs held exclusively by " + c);
        }
      }
      if (node.kind.sharesOnlyWholeSets()) {
        for (Container other : active) {
          CpuSet o = other.assignment().cpus();
          assertTrue(
              o.equals(cpus) || !o.intersects(cpus),
              step + ": " + other + " and " + c + " overlap without sharing one balloon");
        }
      }
    }
    // The template policy does not set CPUs aside for kube-system: all online CPUs are its own.
    int capacity = node.online.size() - (node.kind.keepsOffReserved() ? Node.RESERVED.size() : 0);
    assertTrue(exclusive <= capacity, step + ": " + exclusive + " exclusive CPUs of " + capacity);
  }

  /** A container placed after everything was released gets what it gets from a fresh policy. */
  private static void checkNoResidue(Node used, TopologySpec spec) throws Exception {
    try (Node fresh = new Node(used.kind, spec)) {
      Resources one = new Resources(1000, 1000, 64L << 20, 64L << 20);
      boolean placed = fresh.create("probe", "c", one);
      assertEquals(placed, used.create("probe", "c", one), "the probe placed by a fresh policy");
      if (!placed) {
        return; // no CPU left beside the reserved one
      }
      assertEquals(
          fresh.node.container("uid-probe:c").assignment(),
          used.node.container("uid-probe:c").assignment(),
          "after releasing everything");
    }
  }

  private static int between(SplittableRandom random, int min, int max) {
    return random.nextInt(min, max + 1);
  }

  /** 1-2 packages of 1-2 NUMA nodes of 1-4 cores of 1-2 threads. */
  private static TopologySpec topology(SplittableRandom random) {
    int packages = between(random, 1, 2);
    int nodes = between(random, 1, 2);
    int cores = between(random, 1, 4);
    int threads = between(random, 1, 2);
    return new TopologySpec(
        List.of(TopologySpec.Group.cpus(2L << 30, cores, threads, nodes, 1, packages)));
  }

  /** 1-30 steps: creates, exits and resizes weighted 4:3:2. */
  private static List<Step> steps(SplittableRandom random) {
    int count = between(random, 1, 30);
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int pick = random.nextInt(9);
      if (pick < 4) {
        steps.add(new Step.Create(resources(random)));
      } else if (pick < 7) {
        steps.add(new Step.Release(between(random, 0, 9)));
      } else {
        steps.add(new Step.Update(between(random, 0, 9), between(random, 0, 3)));
      }
    }
    return steps;
  }

  /** Requests and limits of the three QoS classes, CPUs in quarters up to 3 CPUs. */
  private static Resources resources(SplittableRandom random) {
    return switch (random.nextInt(3)) {
      case 0 -> {
        long q = 250L * between(random, 1, 12);
        yield new Resources(q, q, 64L << 20, 64L << 20);
      }
      case 1 -> {
        long request = 250L * between(random, 0, 12);
        long extra = 250L * between(random, request == 0 ? 1 : 0, 12);
        yield new Resources(request, extra == 0 ? 0 : request + extra, 32L << 20, 0);
      }
      default -> new Resources(0, 0, 0, 0);
    };
  }
}
