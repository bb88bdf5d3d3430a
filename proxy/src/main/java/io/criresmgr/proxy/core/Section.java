package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.cache.adjustment.AdjustmentSet;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.controllers.NodeView;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyTimer;
import io.criresmgr.policy.sysfs.DeviceHints;
import io.criresmgr.proxy.core.cri.ContainerCodec;
import io.criresmgr.proxy.core.cri.ContainerUses;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What steps of the {@link Pipeline} work with: the cache, the active policy and the controllers,
 * and the operations every request shares (apply decisions, enforce them, release a container).
 * Touched by one step at a time, under the pipeline's lock, except {@link #stamp()}; the cache
 * saver's snapshot reads the cache under the same lock, between two steps.
 *
 * <p>Why: docs/adr/0001-two-step-serialized-pipeline.md (one section thread) and
 * docs/adr/0005-policies-decide-controllers-enforce.md (decisions applied all or nothing).
 */
public final class Section implements NodeView {
  private static final Logger LOG = LoggerFactory.getLogger(Section.class);

  private final NodeCache cache;
  private final ControllerSet controllers;
  private final AtomicLong stamp = new AtomicLong();
  private final Map<String, Long> changedAt = new HashMap<>();
  private final Explanations explanations = new Explanations();
  private ActivePolicy policy;
  private Map<String, CpuSet> cpuClasses = Map.of();
  private AdjustmentSet adjustments = AdjustmentSet.EMPTY;
  private Consumer<PolicyTimer> timers = t -> LOG.debug("no timer service: {} dropped", t);
  private volatile long memoryCapacity;
  private ExportedResources exports = ExportedResources.NONE;
  private volatile @Nullable DeviceHints deviceHints;

  /** A section over {@code cache} with {@code policy} active and {@code controllers}. */
  public Section(NodeCache cache, ActivePolicy policy, ControllerSet controllers) {
    this.cache = Objects.requireNonNull(cache, "cache");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.controllers = Objects.requireNonNull(controllers, "controllers");
  }

  /** The node cache. */
  public NodeCache cache() {
    return cache;
  }

  /** The controllers. */
  public ControllerSet controllers() {
    return controllers;
  }

  /** Why the containers are where they are, and the last refusals. */
  public Explanations explanations() {
    return explanations;
  }

  /**
   * Records that the policy refused {@code container} with {@code e}, and the client got {@code
   * message}: the policy's explanation, or one made of its message when it gave none.
   */
  void refused(Container container, String message, RuntimeException e) {
    Explanation why =
        e instanceof PolicyException pe && pe.why().isPresent()
            ? pe.why().get()
            : Explanation.of("refused: " + e.getMessage());
    cache.pod(container.podId()).ifPresent(p -> explanations.refused(container, p, message, why));
  }

  /** The active policy. */
  public ActivePolicy policy() {
    return policy;
  }

  /**
   * The node's memory capacity in bytes, 0 if unknown: what kubelet divides a Burstable container's
   * memory request by to get its OOM score adjustment, which the pipeline inverts when the
   * webhook's annotation gives no request.
   */
  public long memoryCapacity() {
    return memoryCapacity;
  }

  /** Sets {@link #memoryCapacity()}; 0 or less: unknown. */
  public void setMemoryCapacity(long bytes) {
    memoryCapacity = Math.max(0, bytes);
  }

  /**
   * The topology hints of the devices and mounts of a container being created, read from sysfs
   * below the host root; none before {@link #setDeviceHints} (tests without a host).
   */
  public List<TopologyHint> deviceHints(ContainerConfig config) {
    DeviceHints hints = deviceHints;
    return hints == null ? List.of() : hints.hints(ContainerCodec.uses(config));
  }

  /**
   * The topology hints of the mounts and devices the runtime reports for a container being adopted
   * at start-up; none before {@link #setDeviceHints}.
   */
  public List<TopologyHint> deviceHints(ContainerUses uses) {
    DeviceHints hints = deviceHints;
    return hints == null ? List.of() : hints.hints(uses.mounts(), uses.devices());
  }

  /** Sets where {@link #deviceHints} reads sysfs. */
  public void setDeviceHints(DeviceHints value) {
    deviceHints = Objects.requireNonNull(value, "value");
  }

  @Override
  public Optional<Pod> pod(String podId) {
    return cache.pod(podId);
  }

  @Override
  public List<Container> activeContainers() {
    return cache.containers().stream().filter(c -> c.state().isActive()).toList();
  }

  @Override
  public Map<String, CpuSet> cpuClasses() {
    return cpuClasses;
  }

  /** The adjustments in force (for containers created from now on). */
  public AdjustmentSet adjustments() {
    return adjustments;
  }

  /** Puts {@code value} in force for new containers; {@link AdjustmentStep} applies it to all. */
  void setAdjustments(AdjustmentSet value) {
    adjustments = Objects.requireNonNull(value, "value");
  }

  /** Where timers of applied decisions go (the pipeline's timer service). */
  void setTimers(Consumer<PolicyTimer> value) {
    timers = Objects.requireNonNull(value, "value");
  }

  /** Where containers' resource data is exported (none by default). */
  void setExports(ExportedResources value) {
    exports = Objects.requireNonNull(value, "value");
  }

  /** The exported resource data of the containers. */
  ExportedResources exports() {
    return exports;
  }

  /** Ends a step: brings the exported data of the containers it changed up to date. */
  void endStep() {
    exports.flush(this);
  }

  /** Replaces the active policy (configuration change or policy switch). */
  public void setPolicy(ActivePolicy value) {
    policy = Objects.requireNonNull(value, "value");
  }

  /**
   * A counter that moves with every step; readable from any thread. A container whose state changed
   * at or after a stamp taken before a runtime listing may be newer than that listing.
   */
  public long stamp() {
    return stamp.get();
  }

  void beginStep() {
    stamp.incrementAndGet();
  }

  /** The stamp of {@code cacheId}'s last state change in this process, or -1. */
  public long changedAt(String cacheId) {
    return changedAt.getOrDefault(cacheId, -1L);
  }

  /** Stores {@code container} and records the state change stamp. */
  public void put(Container container) {
    cache.putContainer(container);
    changedAt.put(container.cacheId(), stamp.get());
  }

  /** Removes a container. */
  public void remove(String cacheId) {
    cache.removeContainer(cacheId);
    changedAt.remove(cacheId);
    explanations.removed(cacheId);
    exports.changed(cacheId);
  }

  /**
   * Asks the policy for decisions, applies them all or nothing, and runs post-update hooks for
   * every other existing container whose assignment changed. Returns the changed cache ids in
   * decision order.
   */
  public List<String> decide(Function<Policy, Decisions> question, Set<String> skipHooks) {
    Decisions decisions = question.apply(policy.policy());
    List<String> changed = apply(decisions);
    enforce(changed, skipHooks);
    return changed;
  }

  /** Applies decisions to the cache all or nothing; returns the changed ids in decision order. */
  public List<String> apply(Decisions decisions) {
    List<String> changed = applyState(decisions);
    applyEffects(decisions);
    return changed;
  }

  /**
   * The part of {@link #apply} that a step can still take back: assignments and policy data. The
   * effects outside the cache (timers, CPU classes) are left to {@link #applyEffects}.
   */
  List<String> applyState(Decisions decisions) {
    List<Decisions.Update> updates = decisions.updates();
    // All or nothing, as NodeCache.applyAssignments: every id is checked before anything changes.
    // One pass each, without a map, Optional or lambda per container: a decision may re-assign
    // hundreds (docs/benchmarks.md, "Issue 20: re-assigned containers").
    for (Decisions.Update u : updates) {
      if (cache.containerOrNull(u.cacheId()) == null) {
        throw new IllegalArgumentException("assignment for unknown container " + u.cacheId());
      }
    }
    Set<String> markPending = controllers.running();
    List<String> changed = new ArrayList<>(updates.size());
    for (Decisions.Update u : updates) {
      exports.changed(u.cacheId());
      Container c = Objects.requireNonNull(cache.containerOrNull(u.cacheId()));
      if (!c.assignment().equals(u.assignment())) {
        cache.putContainer(c.withAssignment(u.assignment(), markPending));
        changed.add(c.cacheId());
      }
    }
    decisions.policyData().ifPresent(data -> cache.setPolicyData(policy.name(), data));
    decisions.explanations().forEach(this::explain);
    return changed;
  }

  private void explain(String cacheId, Explanation why) {
    cache
        .container(cacheId)
        .ifPresent(c -> cache.pod(c.podId()).ifPresent(p -> explanations.placed(c, p, why)));
  }

  /** Hands the decisions' timers to the timer service and passes changed CPU classes on. */
  void applyEffects(Decisions decisions) {
    decisions.timers().forEach(timers);
    decisions
        .cpuClasses()
        .filter(classes -> !classes.equals(cpuClasses))
        .ifPresent(
            classes -> {
              cpuClasses = classes;
              controllers.cpuClassesChanged(classes);
            });
  }

  /**
   * Runs post-update hooks for the changed containers that exist in the runtime (created or
   * running), except {@code skip}; clears the pending marks of controllers that succeeded.
   */
  public void enforce(List<String> changed, Set<String> skip) {
    for (String cacheId : changed) {
      if (skip.contains(cacheId)) {
        continue;
      }
      Container c = cache.containerOrNull(cacheId);
      if (c != null && inRuntime(c)) {
        postUpdateLogged(c);
      }
    }
  }

  /** A required controller failing for another container must not fail this request. */
  private void postUpdateLogged(Container container) {
    try {
      postUpdate(container);
    } catch (ControllerException e) {
      LOG.warn("updating {}: {} (stays pending)", container.cacheId(), e.getMessage());
    }
  }

  /** Runs post-update hooks for {@code container} and clears what succeeded. */
  public void postUpdate(Container container) {
    Set<String> done = controllers.postUpdate(container);
    clearPending(container.cacheId(), done);
  }

  /** Clears pending marks of {@code controllers} on the container, if it is still cached. */
  public void clearPending(String cacheId, Set<String> done) {
    Container c = cache.containerOrNull(cacheId);
    if (c == null || c.pending().isEmpty()) {
      return;
    }
    Container cleared = c;
    boolean any = false;
    for (String name : c.pending()) {
      if (done.contains(name)) {
        cleared = cleared.withoutPending(name);
        any = true;
      }
    }
    if (any) {
      cache.putContainer(cleared);
    }
  }

  /**
   * (Re)configures the controllers and drops the pending marks of controllers that do not run now:
   * nothing would ever clear them, and /introspect would show them forever. A controller started
   * later marks what it must enforce itself (its start brings every container in line).
   */
  public void configureControllers(
      Map<String, io.criresmgr.controllers.ControllerMode> modes,
      io.criresmgr.controllers.ControllerContext context) {
    controllers.configure(modes, context);
    Set<String> running = controllers.running();
    for (Container c : cache.containers()) {
      Container kept = c;
      for (String name : c.pending()) {
        if (!running.contains(name)) {
          kept = kept.withoutPending(name);
        }
      }
      if (!kept.equals(c)) {
        cache.putContainer(kept);
      }
    }
  }

  private static boolean inRuntime(Container c) {
    return c.state() == ContainerState.CREATED || c.state() == ContainerState.RUNNING;
  }

  /**
   * Releases {@code container}'s resources: moves it to {@code newState}, lets the policy release
   * it, enforces what that changed for the others, and runs its post-stop hooks (only if it held
   * resources, so hooks run once per container life). A {@link ContainerState#STALE} container is
   * then dropped from the cache. Release always completes: hook failures are logged, never thrown.
   */
  public void release(Container container, ContainerState newState) {
    Container released = container.withState(newState);
    put(released);
    if (container.state().isActive()) {
      decide(p -> p.release(released, cache), Set.of(released.cacheId()));
      try {
        controllers.postStop(released);
      } catch (ControllerException e) {
        LOG.warn("releasing {}: {}", released.cacheId(), e.getMessage());
      }
    }
    if (newState == ContainerState.STALE) {
      remove(released.cacheId());
    }
  }

  /** Releases every active container of a pod; see {@link #release}. */
  public void releasePod(String podId, ContainerState newState) {
    for (Container c : cache.containersOf(podId)) {
      if (c.state().isActive() || newState == ContainerState.STALE) {
        release(c, newState);
      }
    }
  }
}
