package io.criresmgr.policy;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Resources;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;

/**
 * A seeded random sequence of pipeline steps against one policy and one {@link FakeNode}: creates
 * (allocate), starts (event), exits (release, sometimes followed by removal), resource updates and
 * rebalances. A step the policy refuses with {@link PolicyException} is rolled back as the pipeline
 * would; any other exception fails the test. A {@link Check} sees every call and every state.
 */
public final class PolicyScenario {
  private final Random random;
  private final FakeNode node;
  private final List<Resources> workload;
  private int created;

  /** A scenario for {@code seed} on {@code node}, creating containers with {@code workload}. */
  public PolicyScenario(long seed, FakeNode node, List<Resources> workload) {
    this.random = new Random(seed);
    this.node = node;
    this.workload = List.copyOf(workload);
  }

  /**
   * One policy call: what it is, the call itself (repeatable on any policy and state), how to undo
   * the preparation when the policy refuses, and what to do after its decisions were applied.
   *
   * @param what description for failure messages, e.g. {@code allocate uid-p1:c3}
   * @param op the call
   * @param rollback undoes the step's preparation
   * @param after runs after the decisions were applied
   */
  public record Step(
      String what,
      BiFunction<Policy, NodeState, Decisions> op,
      Runnable rollback,
      Runnable after) {}

  /** What a contract test checks during a scenario. */
  public interface Check {
    /** After {@code policy} made {@code result} for {@code step} on {@code node} (not applied). */
    default void call(Step step, FakeNode before, FakeNode node, Decisions result) {}

    /** After a step's decisions were applied. */
    default void state(FakeNode node) {}
  }

  /** Runs {@code steps} steps with {@code policy}. */
  public void run(Policy policy, int steps, Check check) {
    for (int i = 0; i < steps; i++) {
      Step step = next();
      FakeNode before = node.copy();
      Decisions result;
      try {
        result = step.op().apply(policy, node.cache());
      } catch (PolicyException e) {
        step.rollback().run();
        continue;
      }
      check.call(step, before, node, result);
      node.apply(result);
      step.after().run();
      check.state(node);
    }
  }

  private Step next() {
    List<Container> active =
        node.cache().containers().stream().filter(c -> c.state().isActive()).toList();
    int action = random.nextInt(10);
    if (active.isEmpty() || action < 4) {
      return create();
    }
    Container target = active.get(random.nextInt(active.size()));
    return switch (action) {
      case 4, 5 -> start(target);
      case 6, 7 -> release(target);
      case 8 -> update(target);
      default -> new Step("rebalance", (p, s) -> p.rebalance(s), () -> {}, () -> {});
    };
  }

  private Step create() {
    String pod = "p" + random.nextInt(3);
    Container c = node.create(pod, "c" + created++, pick());
    return new Step(
        "allocate " + c.cacheId(),
        (p, s) -> p.allocate(c, s),
        () -> node.cache().removeContainer(c.cacheId()),
        () -> {});
  }

  private Step start(Container target) {
    Container c = node.setState(target.cacheId(), ContainerState.RUNNING);
    PolicyEvent event = new PolicyEvent(PolicyEvent.CONTAINER_STARTED, c.cacheId(), Map.of());
    return new Step(
        "start " + c.cacheId(),
        (p, s) -> p.handleEvent(event, s),
        () -> node.restore(target),
        () -> {});
  }

  private Step release(Container target) {
    Container c = node.setState(target.cacheId(), ContainerState.EXITED);
    boolean remove = random.nextBoolean();
    return new Step(
        "release " + c.cacheId(),
        (p, s) -> p.release(c, s),
        () -> node.restore(target),
        () -> {
          if (remove) {
            node.cache().removeContainer(c.cacheId());
          }
        });
  }

  private Step update(Container target) {
    Container c = node.setResources(target.cacheId(), pick());
    return new Step(
        "update " + c.cacheId() + " to " + c.resources(),
        (p, s) -> p.update(c, s),
        () -> node.restore(target),
        () -> {});
  }

  private Resources pick() {
    return workload.get(random.nextInt(workload.size()));
  }
}
