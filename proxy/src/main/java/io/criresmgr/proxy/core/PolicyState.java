package io.criresmgr.proxy.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a policy change can alter in the section: the active policy, every container's record, the
 * policy data of the old and the new policy, the recorded policy name and the CPU classes. Taken
 * before a reload changes the policy and put back, in the same pipeline step, if a later part of
 * the reload is refused; containers whose placement is put back are enforced again.
 */
public final class PolicyState {
  private final ActivePolicy policy;
  private final List<Container> containers;
  private final String nextName;
  private final Optional<JsonNode> data;
  private final Optional<JsonNode> nextData;
  private final String recorded;
  private final Map<String, CpuSet> cpuClasses;

  private PolicyState(Section s, String nextName) {
    this.policy = s.policy();
    this.containers = s.cache().containers();
    this.nextName = nextName;
    this.data = s.cache().policyData(policy.name());
    this.nextData = s.cache().policyData(nextName);
    this.recorded = s.cache().activePolicy();
    this.cpuClasses = s.cpuClasses();
  }

  /** The state of {@code s} before policy {@code nextName} (perhaps the same name) takes over. */
  public static PolicyState of(Section s, String nextName) {
    return new PolicyState(s, nextName);
  }

  /** Puts the state back into {@code s} and enforces the containers whose placement it restored. */
  public void restore(Section s) {
    s.setPolicy(policy);
    s.cache().setPolicyData(nextName, nextData.orElse(null));
    s.cache().setPolicyData(policy.name(), data.orElse(null));
    s.cache().setActivePolicy(recorded);
    List<String> moved = new ArrayList<>();
    Set<String> running = s.controllers().running();
    for (Container old : containers) {
      Optional<Container> now = s.cache().container(old.cacheId());
      if (now.isPresent() && !now.get().assignment().equals(old.assignment())) {
        s.cache().putContainer(old.withAssignment(old.assignment(), running));
        moved.add(old.cacheId());
      }
    }
    if (!s.cpuClasses().equals(cpuClasses)) {
      s.applyEffects(Decisions.NONE.withCpuClasses(new TreeMap<>(cpuClasses)));
    }
    s.enforce(moved, Set.of());
  }
}
