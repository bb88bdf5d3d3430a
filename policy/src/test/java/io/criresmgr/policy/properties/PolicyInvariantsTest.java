package io.criresmgr.policy.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * The invariants every built-in policy keeps, on generated topologies and generated sequences of
 * creates, exits and resizes applied as the pipeline applies decisions, checked after every step:
 * no CPU is held exclusively by two containers or by a container and anyone else, exclusive grants
 * fit the CPUs that are not reserved and stay off the reserved CPU, every assigned CPU is online,
 * and once everything is released the policy places a new container as a fresh policy would.
 */
class PolicyInvariantsTest {
  private static final int TRIES = 25;

  @Property(tries = TRIES, shrinking = ShrinkingMode.BOUNDED)
  void templateKeepsItsInvariants(
      @ForAll("topologies") TopologySpec spec, @ForAll("steps") List<Step> steps) throws Exception {
    check(PolicyKind.TEMPLATE, spec, steps);
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.BOUNDED)
  void topologyAwareKeepsItsInvariants(
      @ForAll("topologies") TopologySpec spec, @ForAll("steps") List<Step> steps) throws Exception {
    check(PolicyKind.TOPOLOGY_AWARE, spec, steps);
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.BOUNDED)
  void balloonsKeepsItsInvariants(
      @ForAll("topologies") TopologySpec spec, @ForAll("steps") List<Step> steps) throws Exception {
    check(PolicyKind.BALLOONS, spec, steps);
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
              other == c || !other.assignment().cpus().intersects(cpus),
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
    int capacity = node.online.size() - Node.RESERVED.size();
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

  @Provide
  Arbitrary<TopologySpec> topologies() {
    return Combinators.combine(
            Arbitraries.integers().between(1, 2),
            Arbitraries.integers().between(1, 2),
            Arbitraries.integers().between(1, 4),
            Arbitraries.integers().between(1, 2))
        .as(
            (packages, nodes, cores, threads) ->
                new TopologySpec(
                    List.of(
                        TopologySpec.Group.cpus(2L << 30, cores, threads, nodes, 1, packages))));
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> create = resources().map(Step.Create::new);
    Arbitrary<Step> release = Arbitraries.integers().between(0, 9).map(Step.Release::new);
    Arbitrary<Step> update =
        Combinators.combine(
                Arbitraries.integers().between(0, 9), Arbitraries.integers().between(0, 3))
            .as(Step.Update::new);
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(4, create),
            net.jqwik.api.Tuple.of(3, release),
            net.jqwik.api.Tuple.of(2, update))
        .list()
        .ofMinSize(1)
        .ofMaxSize(30);
  }

  /** Requests and limits of the three QoS classes, CPUs in quarters up to 3 CPUs. */
  private static Arbitrary<Resources> resources() {
    Arbitrary<Long> quarters = Arbitraries.longs().between(0, 12).map(q -> q * 250);
    Arbitrary<Resources> guaranteed =
        quarters.filter(q -> q > 0).map(q -> new Resources(q, q, 64L << 20, 64L << 20));
    Arbitrary<Resources> burstable =
        Combinators.combine(quarters, quarters)
            .as((req, extra) -> new Resources(req, extra == 0 ? 0 : req + extra, 32L << 20, 0))
            .filter(r -> r.cpuRequestMilli() + r.cpuLimitMilli() > 0);
    Arbitrary<Resources> bestEffort = Arbitraries.just(new Resources(0, 0, 0, 0));
    return Arbitraries.oneOf(guaranteed, burstable, bestEffort);
  }
}
