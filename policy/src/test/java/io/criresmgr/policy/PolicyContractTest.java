package io.criresmgr.policy;

import static io.criresmgr.policy.FakeNode.cpu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract every policy passes. Subclass it in the policy's test package and give the provider
 * (and, where the defaults do not fit, options, a context, the CPUs assignments must stay within
 * and a workload the policy can hold at once). The randomized cases run {@link PolicyScenario}s
 * with fixed seeds, so a failure repeats.
 */
public abstract class PolicyContractTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int STEPS = 60;

  /** The provider of the policy under test. */
  protected abstract PolicyProvider<?> provider();

  /** The options section given to {@link PolicyProvider#parseOptions}; default empty. */
  protected JsonNode options() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** The context the policy is created with; default 8 online CPUs and 2 memory nodes. */
  protected PolicyContext context() {
    return new PolicyContext(
        Path.of("/nonexistent-host-root"), CpuSet.range(0, 7), CpuSet.of(0, 1), Map.of(), Map.of());
  }

  /** The CPUs every assignment stays within; default the online CPUs. */
  protected CpuSet allowedCpus() {
    return context().onlineCpus();
  }

  /** Containers' requests and limits the policy can hold all at once, in creation order. */
  protected List<Resources> workload() {
    return List.of(
        cpu(2000, 2000), cpu(500, 1000), cpu(0, 0), cpu(1000, 1000), cpu(250, 0), cpu(1500, 1500));
  }

  /**
   * Whether {@code c} holds its CPUs exclusively, so that no other active container may use them.
   * Default: its CPU request equals its limit, is a whole number of CPUs, and its cpuset has that
   * many CPUs (the Kubernetes static CPU manager's sense).
   */
  protected boolean holdsExclusively(Container c) {
    Resources r = c.resources();
    return r.cpuRequestMilli() >= 1000
        && r.cpuRequestMilli() % 1000 == 0
        && r.cpuRequestMilli() == r.cpuLimitMilli()
        && c.assignment().cpus().size() == r.cpuRequestMilli() / 1000;
  }

  /** A new policy from the provider, the options and the context. */
  protected final Policy newPolicy() {
    return provider().parseAndCreate(context(), options());
  }

  private void scenario(long seed, PolicyScenario.Check check) {
    new PolicyScenario(seed, new FakeNode(provider().name()), workload())
        .run(newPolicy(), STEPS, check);
  }

  @Test
  void providerHasANameAndADescription() {
    assertTrue(provider().name().matches("[a-z][a-z0-9-]*"), provider().name());
    assertFalse(provider().description().isBlank());
  }

  @Test
  void optionsParseWithoutChangingTheSection() {
    JsonNode section = options();
    JsonNode copy = section.deepCopy();
    provider().parseOptions(section);
    assertEquals(copy, section);
    provider().parseOptions(JsonNodeFactory.instance.objectNode()); // defaults are valid
  }

  @Test
  void allocateThenReleaseLeavesNoResidue() {
    FakeNode node = new FakeNode(provider().name());
    Policy policy = newPolicy();
    List<Decisions> first = allocateWorkload(node, policy);
    for (Container c : node.cache().containers()) {
      Container exited = node.setState(c.cacheId(), ContainerState.EXITED);
      node.apply(policy.release(exited, node.cache()));
    }
    assertEquals(first, allocateWorkload(node, policy), "allocations after releasing everything");
  }

  /** Creates and allocates containers w0, w1, ... of pod {@code residue}; none may be refused. */
  private List<Decisions> allocateWorkload(FakeNode node, Policy policy) {
    List<Decisions> all = new ArrayList<>();
    for (int i = 0; i < workload().size(); i++) {
      Container c = node.create("residue", "w" + i, workload().get(i));
      Decisions d = policy.allocate(c, node.cache());
      node.apply(d);
      node.setState(c.cacheId(), ContainerState.RUNNING);
      all.add(d);
    }
    return all;
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void decisionsReferenceOnlyContainersInTheCache(long seed) {
    scenario(
        seed,
        new PolicyScenario.Check() {
          @Override
          public void call(PolicyScenario.Step step, FakeNode before, FakeNode node, Decisions d) {
            for (Decisions.Update u : d.updates()) {
              assertTrue(node.cache().container(u.cacheId()).isPresent(), step.what() + ": " + u);
            }
          }
        });
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void decisionsAreDeterministic(long seed) {
    scenario(
        seed,
        new PolicyScenario.Check() {
          @Override
          public void call(PolicyScenario.Step step, FakeNode before, FakeNode node, Decisions d) {
            assertEquals(d, step.op().apply(newPolicy(), before.copy().cache()), step.what());
          }
        });
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void assignmentsStayWithinTheAllowedCpusAndMemoryNodes(long seed) {
    scenario(
        seed,
        new PolicyScenario.Check() {
          @Override
          public void state(FakeNode node) {
            for (Container c : active(node)) {
              assertTrue(allowedCpus().containsAll(c.assignment().cpus()), c.toString());
              assertTrue(context().memoryNodes().containsAll(c.assignment().mems()), c.toString());
            }
          }
        });
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void noActiveContainerUsesAnotherOnesExclusiveCpus(long seed) {
    scenario(
        seed,
        new PolicyScenario.Check() {
          @Override
          public void state(FakeNode node) {
            assertNoCpuHeldExclusivelyIsUsedTwice(node);
          }
        });
  }

  private void assertNoCpuHeldExclusivelyIsUsedTwice(FakeNode node) {
    for (Container holder : active(node)) {
      if (!holdsExclusively(holder)) {
        continue;
      }
      for (Container other : active(node)) {
        assertTrue(
            other.cacheId().equals(holder.cacheId())
                || !other.assignment().cpus().intersects(holder.assignment().cpus()),
            other.cacheId() + " uses CPUs held by " + holder.cacheId());
      }
    }
  }

  /**
   * After the cache is lost, adopting the containers in creation order with the CPUs and memory
   * nodes they run on gives each the same again, although a released container left a hole that
   * allocating afresh would fill.
   */
  @Test
  void adoptionAfterACacheLossGivesEveryContainerItsCpusAndMemoryNodesBack() {
    FakeNode before = new FakeNode(provider().name());
    Policy policy = newPolicy();
    Container hole = before.create("hole", "h", cpu(1000, 1000));
    before.apply(policy.allocate(hole, before.cache()));
    before.setState(hole.cacheId(), ContainerState.RUNNING);
    allocateWorkload(before, policy);
    Container exited = before.setState(hole.cacheId(), ContainerState.EXITED);
    before.apply(policy.release(exited, before.cache()));

    FakeNode after = adoptAll(before, c -> c.assignment());

    for (Container c : active(before)) {
      assertEquals(
          adoptedPlacement(c), adoptedPlacement(after.container(c.cacheId())), c.cacheId());
    }
  }

  /** Adoption that prefers CPUs another container holds exclusively does not take them. */
  @Test
  void adoptionNeverGivesACpuExclusivelyTwice() {
    FakeNode before = new FakeNode(provider().name());
    allocateWorkload(before, newPolicy());
    Assignment first = before.cache().containers().get(0).assignment();

    FakeNode after = adoptAll(before, c -> first);

    assertNoCpuHeldExclusivelyIsUsedTwice(after);
  }

  /**
   * A node that lost its cache: the active containers of {@code before} adopted by a new policy in
   * creation order, each running on {@code current.apply(container)}.
   */
  private FakeNode adoptAll(FakeNode before, Function<Container, Assignment> current) {
    FakeNode after = new FakeNode(provider().name());
    Policy policy = newPolicy();
    for (Container c : active(before)) {
      String pod = c.podId().substring("sandbox-".length());
      Container adopted = after.create(pod, c.name(), c.resources());
      adopted = after.setState(adopted.cacheId(), ContainerState.RUNNING);
      after.apply(policy.adopt(adopted, current.apply(c), after.cache()));
    }
    return after;
  }

  private static String placement(Container c) {
    return "CPUs " + c.assignment().cpus() + ", memory nodes " + c.assignment().mems();
  }

  /**
   * What adoption after a cache loss must give {@code c} back: by default its CPUs and memory
   * nodes. A policy may compare less for containers whose exclusive CPUs cannot be told from the
   * shared ones they also run on.
   */
  protected String adoptedPlacement(Container c) {
    return placement(c);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void policyNeverChangesItsInputs(long seed) {
    scenario(
        seed,
        new PolicyScenario.Check() {
          @Override
          public void call(PolicyScenario.Step step, FakeNode before, FakeNode node, Decisions d) {
            assertEquals(before.cache().snapshot(), node.cache().snapshot(), step.what());
          }
        });
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void policyDataRoundTripsThroughJsonText(long seed) {
    scenario(
        seed,
        new PolicyScenario.Check() {
          @Override
          public void call(PolicyScenario.Step step, FakeNode before, FakeNode node, Decisions d) {
            d.policyData().ifPresent(data -> assertEquals(data, throughText(data), step.what()));
            FakeNode reread = before.copy(PolicyContractTest::throughText);
            assertEquals(d, step.op().apply(newPolicy(), reread.cache()), step.what());
          }
        });
  }

  private static JsonNode throughText(JsonNode data) {
    try {
      return JSON.readTree(JSON.writeValueAsString(data));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Container> active(FakeNode node) {
    return node.cache().containers().stream().filter(c -> c.state().isActive()).toList();
  }
}
