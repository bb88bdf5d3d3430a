package io.criresmgr.proxy.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.policy.Decisions;
import io.criresmgr.proxy.config.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Switches the active policy while containers run, when a reload or the node agent names another
 * {@code policy.Active}: the new policy allocates every active container afresh in creation order,
 * as a start with another policy does. All or nothing: if the new policy refuses a container, the
 * old policy, the policy data and every assignment are put back before anything was enforced.
 */
public final class PolicySwitch {
  private static final Logger LOG = LoggerFactory.getLogger(PolicySwitch.class);

  private final Section s;
  private final ActivePolicy previous;
  private final ActivePolicy next;
  private final List<Container> before;
  private final List<Decisions> applied = new ArrayList<>();

  private PolicySwitch(Section s, ActivePolicy next) {
    this.s = s;
    this.previous = s.policy();
    this.next = next;
    this.before = s.cache().containers();
  }

  /**
   * Makes {@code next} the active policy of {@code s} (a pipeline step).
   *
   * @throws ConfigException naming the container the new policy refused; nothing changed then
   */
  public static void run(Section s, ActivePolicy next) {
    new PolicySwitch(s, next).run();
  }

  private void run() {
    Optional<JsonNode> staleData = s.cache().policyData(next.name());
    s.setPolicy(next);
    s.cache().setPolicyData(next.name(), null);
    before.forEach(c -> s.cache().putContainer(c.withAssignment(Assignment.NONE, Set.of())));
    for (Container c : before) {
      if (c.state().isActive()) {
        allocate(c.cacheId(), staleData);
      }
    }
    s.cache().setPolicyData(previous.name(), null);
    s.cache().setActivePolicy(next.name());
    applied.forEach(s::applyEffects);
    if (applied.stream().noneMatch(d -> d.cpuClasses().isPresent()) && !s.cpuClasses().isEmpty()) {
      // The old policy's CPU classes (balloons') would go on tuning CPUs it no longer places.
      s.applyEffects(Decisions.NONE.withCpuClasses(new TreeMap<>()));
    }
    List<String> moved = keepUnchanged();
    s.enforce(moved, Set.of());
    startPolicy();
    LOG.info(
        "policy switched from {} to {}: {} containers allocated afresh, {} of them moved",
        previous.name(),
        next.name(),
        applied.size(),
        moved.size());
  }

  private void allocate(String cacheId, Optional<JsonNode> staleData) {
    Container c = s.cache().container(cacheId).orElseThrow();
    try {
      Decisions decisions = next.policy().allocate(c, s.cache());
      s.applyState(decisions);
      applied.add(decisions);
    } catch (RuntimeException e) {
      rollBack(staleData);
      throw new ConfigException(
          "policy.Active: switching from "
              + previous.name()
              + " to "
              + next.name()
              + " refused: "
              + next.name()
              + " cannot place container "
              + cacheId
              + ": "
              + e.getMessage()
              + "; every container keeps its placement by "
              + previous.name(),
          e);
    }
  }

  private void rollBack(Optional<JsonNode> staleData) {
    s.setPolicy(previous);
    before.forEach(s.cache()::putContainer);
    s.cache().setPolicyData(next.name(), staleData.orElse(null));
  }

  /**
   * Puts back the records of containers whose placement did not change, so they are not marked
   * pending for nothing; returns the ids of the others, in creation order.
   */
  private List<String> keepUnchanged() {
    List<String> moved = new ArrayList<>();
    for (Container old : before) {
      Container now = s.cache().container(old.cacheId()).orElseThrow();
      if (now.assignment().equals(old.assignment())) {
        s.cache().putContainer(old);
      } else {
        moved.add(old.cacheId());
      }
    }
    return moved;
  }

  /** Lets the new policy adapt its state, as after a start; a failure leaves it as it is. */
  private void startPolicy() {
    try {
      s.decide(p -> p.start(s.cache()), Set.of());
    } catch (RuntimeException e) {
      LOG.warn("policy {} could not adapt after the switch: {}", next.name(), e.getMessage());
    }
  }
}
