package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.proxy.core.cri.ContainerCodec;
import io.criresmgr.proxy.core.cri.ContainerStates;
import io.criresmgr.proxy.core.cri.LinuxResourcesCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the restored cache in line with the runtime's listing, in one pipeline step: pods and
 * containers that vanished are released and dropped, known containers keep their assignments (with
 * their runtime id and state refreshed), and running containers the cache does not know are adopted
 * and allocated in creation order, each offered the CPUs and memory nodes it runs on ({@link
 * io.criresmgr.policy.Policy#adopt}). A container the cache released but the runtime still holds
 * (stopped while created) is allocated afresh. After a policy switch every container is allocated
 * afresh by the new policy.
 */
final class Reconciler {
  private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);

  /**
   * What the runtime reported.
   *
   * @param pods every sandbox
   * @param newPods sandboxes the cache did not know, built from their verbose status
   * @param containers every container
   * @param statuses status of every container that has not exited, by id
   * @param hints device hints of containers the cache did not know, by id (none if absent)
   */
  record Input(
      List<PodSandbox> pods,
      Map<String, Pod> newPods,
      List<io.criresmgr.api.runtime.v1.Container> containers,
      Map<String, ContainerStatus> statuses,
      Map<String, List<TopologyHint>> hints) {
    /** Without device hints. */
    Input(
        List<PodSandbox> pods,
        Map<String, Pod> newPods,
        List<io.criresmgr.api.runtime.v1.Container> containers,
        Map<String, ContainerStatus> statuses) {
      this(pods, newPods, containers, statuses, Map.of());
    }
  }

  /**
   * What reconciliation did.
   *
   * @param released containers released because they vanished or exited
   * @param adopted containers adopted from the runtime, or allocated afresh because the cache had
   *     released them
   * @param kept containers that kept their assignment
   */
  record Outcome(int released, int adopted, int kept) {}

  private final Section s;
  private int released;
  private int adopted;
  private int kept;

  Reconciler(Section s) {
    this.s = Objects.requireNonNull(s, "s");
  }

  Outcome reconcile(Input input) {
    syncPods(input);
    Map<String, io.criresmgr.api.runtime.v1.Container> current = currentByCacheId(input);
    Set<String> matched = new HashSet<>();
    List<io.criresmgr.api.runtime.v1.Container> toAdopt = new ArrayList<>();
    List<String> toReallocate = new ArrayList<>();
    for (io.criresmgr.api.runtime.v1.Container listed :
        StartupSync.byCreation(List.copyOf(current.values()))) {
      String cacheId = cacheIdOf(listed);
      matched.add(cacheId);
      Container cached = s.cache().container(cacheId).orElse(null);
      if (cached == null) {
        toAdopt.add(listed);
      } else if (!cached.state().isActive()) {
        revive(cached, listed);
        toReallocate.add(cacheId);
      } else {
        refresh(cached, listed, input);
      }
    }
    for (Container c : s.cache().containers()) {
      if (!matched.contains(c.cacheId())) {
        s.release(c, ContainerState.STALE);
        released++;
      }
    }
    if (!switchPolicyIfNeeded()) {
      // After a switch every active container, these included, was allocated afresh already.
      toReallocate.forEach(id -> s.cache().container(id).ifPresent(this::allocate));
    }
    AdoptedPlacements before = new AdoptedPlacements();
    for (io.criresmgr.api.runtime.v1.Container listed : toAdopt) {
      ContainerStatus status = input.statuses().get(listed.getId());
      if (status != null) {
        adopt(listed, status, input.hints().getOrDefault(listed.getId(), List.of()), before);
      }
    }
    before.reportMoves(s.cache());
    s.cache().setActivePolicy(s.policy().name());
    startPolicy();
    LOG.info(
        "synchronized with the runtime: {} containers kept, {} adopted, {} released",
        kept,
        adopted,
        released);
    return new Outcome(released, adopted, kept);
  }

  /** Lets the policy adapt the restored state; a failure leaves it as it is. */
  private void startPolicy() {
    try {
      s.decide(p -> p.start(s.cache()), Set.of());
    } catch (RuntimeException e) {
      LOG.warn(
          "policy {} could not adapt the restored state: {}", s.policy().name(), e.getMessage());
    }
  }

  private void syncPods(Input input) {
    Map<String, PodSandbox> listed = new HashMap<>();
    input.pods().forEach(p -> listed.put(p.getId(), p));
    for (Pod pod : s.cache().pods()) {
      PodSandbox item = listed.get(pod.id());
      if (item == null) {
        s.releasePod(pod.id(), ContainerState.STALE);
        s.cache().removePod(pod.id());
      } else if (item.getState() == PodSandboxState.SANDBOX_NOTREADY && pod.ready()) {
        s.cache().putPod(pod.withReady(false));
      }
    }
    input.newPods().values().forEach(s.cache()::putPod);
  }

  /**
   * Per cache id the newest live container of a ready pod. A container of a stopped pod holds no
   * resources, as when StopPodSandbox went through the pipeline (the runtime keeps a created one in
   * state created).
   */
  private Map<String, io.criresmgr.api.runtime.v1.Container> currentByCacheId(Input input) {
    Set<String> ready = new HashSet<>();
    input.pods().stream()
        .filter(p -> p.getState() == PodSandboxState.SANDBOX_READY)
        .forEach(p -> ready.add(p.getId()));
    Map<String, io.criresmgr.api.runtime.v1.Container> best = new HashMap<>();
    for (io.criresmgr.api.runtime.v1.Container c : StartupSync.byCreation(input.containers())) {
      if (s.cache().pod(c.getPodSandboxId()).isEmpty()
          || !ready.contains(c.getPodSandboxId())
          || !isLive(c)) {
        continue;
      }
      best.put(cacheIdOf(c), c);
    }
    return best;
  }

  private static boolean isLive(io.criresmgr.api.runtime.v1.Container c) {
    return c.getState() == io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING
        || c.getState() == io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_CREATED;
  }

  private String cacheIdOf(io.criresmgr.api.runtime.v1.Container c) {
    Pod pod = s.cache().pod(c.getPodSandboxId()).orElseThrow();
    return ContainerCodec.cacheId(pod, c.getMetadata().getName());
  }

  private void refresh(
      Container cached, io.criresmgr.api.runtime.v1.Container listed, Input input) {
    ContainerState state = ContainerStates.fromProto(listed.getState());
    Container refreshed = cached.withId(listed.getId()).withState(state);
    if (cached.state() == ContainerState.CREATING
        || !cached.id().equals(listed.getId())
        || !inForce(cached.assignment(), input.statuses().get(listed.getId()))) {
      // The daemon died around the create, or before the runtime took the last update of this
      // container (the cache may have been saved with the update already counted as done): make
      // sure the runtime has the assignment.
      refreshed = refreshed.withAssignment(refreshed.assignment(), s.controllers().running());
    }
    s.put(refreshed);
    if (!refreshed.pending().isEmpty()) {
      s.enforce(List.of(refreshed.cacheId()), Set.of());
    }
    kept++;
  }

  /**
   * Whether the runtime reports every setting {@code assignment} decides. Without a status there is
   * nothing to compare and the cache is trusted; a runtime that reports no resources is sent the
   * assignment again.
   */
  private static boolean inForce(Assignment assignment, @Nullable ContainerStatus status) {
    if (status == null) {
      return true;
    }
    if (!status.getResources().hasLinux()) {
      return assignment.equals(Assignment.NONE);
    }
    LinuxResources actual = LinuxResourcesCodec.fromProto(status.getResources().getLinux());
    return assignment.applyTo(actual).equals(actual);
  }

  /**
   * The cache released the container (kubelet stopped it while it was created, which leaves it
   * created in the runtime, or it exited and the daemon died before recording its re-creation under
   * the same name), yet the runtime holds it: its old CPUs may belong to another container by now,
   * so it is allocated afresh like an adopted one.
   */
  private void revive(Container cached, io.criresmgr.api.runtime.v1.Container listed) {
    ContainerState state = ContainerStates.fromProto(listed.getState());
    LOG.info(
        "container {} ({}) is {} in the runtime, not {}: allocating it afresh",
        cached.cacheId(),
        listed.getId(),
        state,
        cached.state());
    s.put(cached.withId(listed.getId()).withState(state).withAssignment(Assignment.NONE, Set.of()));
    adopted++;
  }

  /** Allocates every container afresh if the active policy is not the recorded one. */
  private boolean switchPolicyIfNeeded() {
    String recorded = s.cache().activePolicy();
    String active = s.policy().name();
    if (recorded.equals(active) || (recorded.isEmpty() && s.cache().containers().isEmpty())) {
      return false;
    }
    LOG.info("policy switched from {} to {}: allocating every container afresh", recorded, active);
    s.cache().resetPolicy();
    for (Container c : s.cache().containers()) {
      s.put(c.withAssignment(Assignment.NONE, Set.of()));
    }
    for (Container c : s.cache().containers()) {
      if (c.state().isActive()) {
        allocate(c);
      }
    }
    return true;
  }

  /**
   * Adopts {@code listed} with its device {@code hints}, recording in {@code before} the CPUs and
   * memory nodes it runs on.
   */
  private void adopt(
      io.criresmgr.api.runtime.v1.Container listed,
      ContainerStatus status,
      List<TopologyHint> hints,
      AdoptedPlacements before) {
    Pod pod = s.cache().pod(listed.getPodSandboxId()).orElseThrow();
    String cacheId = ContainerCodec.cacheId(pod, listed.getMetadata().getName());
    Container c =
        ContainerCodec.fromStatus(cacheId, s.cache().nextSeq(), pod, status, s.memoryCapacity())
            .withTopologyHints(hints);
    s.put(c);
    LOG.info("adopting container {} ({}) found running in the runtime", cacheId, listed.getId());
    Assignment current = before.record(cacheId, status);
    decide(c, p -> p.adopt(c, current, s.cache()));
    adopted++;
  }

  private void allocate(Container c) {
    decide(c, p -> p.allocate(c, s.cache()));
  }

  private void decide(Container c, Function<Policy, Decisions> how) {
    try {
      s.decide(how, Set.of());
    } catch (PolicyException | IllegalArgumentException e) {
      LOG.warn(
          "cannot allocate resources of container {}: {}; it keeps what the runtime gave it",
          c.cacheId(),
          e.getMessage());
    }
  }
}
