package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.CreateContainerResponse;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.cache.adjustment.AdjustmentException;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.proxy.core.cri.ContainerCodec;
import io.grpc.Status;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CreateContainer in two steps around the runtime call: reserve (insert the container, let the
 * policy allocate, run pre-create hooks, rewrite the request), then commit (record the runtime's
 * id) or roll back (release the reservation). Updates of other containers that the allocation
 * implies go out before the create. The runtime's answer goes back without waiting for the commit
 * ({@link RequestFlow#decideCallCommit}).
 */
public final class CreateRequests {
  private static final Logger LOG = LoggerFactory.getLogger(CreateRequests.class);

  private final RequestFlow flow;
  private final RuntimeUpdates updates;
  private final DeviceHintLookup hints;
  private volatile Consumer<CreationClasses> classes = c -> {};

  /** How long finding a container's device hints may take (docs/topology.md, "Device hints"). */
  static final Duration HINTS_LIMIT = Duration.ofSeconds(2);

  /** Requests through {@code pipeline}, calling {@code runtime}, waiting for {@code updates}. */
  public CreateRequests(Pipeline pipeline, RuntimeClient runtime, RuntimeUpdates updates) {
    this(pipeline, runtime, updates, DeviceHintLookup.none());
  }

  /** As above, with the device hints of created containers found by {@code hints}. */
  CreateRequests(
      Pipeline pipeline, RuntimeClient runtime, RuntimeUpdates updates, DeviceHintLookup hints) {
    this.flow = new RequestFlow(pipeline, runtime);
    this.updates = Objects.requireNonNull(updates, "updates");
    this.hints = Objects.requireNonNull(hints, "hints");
  }

  /**
   * Hands {@code sink} the classes controllers set for the runtime to apply at creation, for every
   * CreateContainer that has any, before the request goes to the runtime (NRI mode: the front end
   * puts them in the adjustment). Without a sink they are dropped: CRI cannot carry them.
   */
  public void onCreationClasses(Consumer<CreationClasses> sink) {
    classes = Objects.requireNonNull(sink, "sink");
  }

  /**
   * A reservation made before the runtime call: the rewritten request goes out once the updates of
   * other containers it implies are {@code sent}.
   */
  private record Reservation(
      String cacheId,
      long seq,
      CreateContainerRequest request,
      CompletableFuture<Void> sent,
      @Nullable Runnable whileCalled)
      implements RequestFlow.Decision<CreateContainerRequest> {
    @Override
    public CompletableFuture<?> ready() {
      return sent;
    }

    @Override
    public @Nullable Runnable whileCalled() {
      return whileCalled;
    }
  }

  /** Handles one CreateContainer. */
  public CompletableFuture<CreateContainerResponse> create(
      CreateContainerRequest request, CallScope scope) {
    return hints
        .of(request.getConfig())
        .thenCompose(
            h ->
                flow.decideCallCommit(
                    scope,
                    RuntimeServiceGrpc.getCreateContainerMethod(),
                    request,
                    s -> reserve(s, request, h),
                    this::commit));
  }

  private @Nullable Reservation reserve(
      Section s, CreateContainerRequest request, List<TopologyHint> deviceHints) {
    Pod pod = s.cache().pod(request.getPodSandboxId()).orElse(null);
    if (pod == null) {
      LOG.debug("CreateContainer in unknown pod {}: passed through", request.getPodSandboxId());
      return null;
    }
    String name = request.getConfig().getMetadata().getName();
    String cacheId = ContainerCodec.cacheId(pod, name);
    s.cache()
        .container(cacheId)
        .ifPresent(
            old -> {
              LOG.info("re-creation of container {}: releasing the old one", cacheId);
              s.release(old, ContainerState.STALE);
            });
    Container created =
        adjusted(
            s,
            pod,
            ContainerCodec.fromRequest(
                    cacheId, s.cache().nextSeq(), pod, request, s.memoryCapacity())
                .withTopologyHints(deviceHints));
    s.put(created);
    allocate(s, created);
    ContainerEdits edits = preCreate(s, cacheId);
    CreationClasses creation = CreationClasses.of(request.getPodSandboxId(), name, edits);
    if (!creation.isEmpty()) {
      classes.accept(creation);
    }
    Container reserved = s.cache().container(cacheId).orElseThrow();
    Optional<Mount> mount = s.exports().prepare(s, cacheId);
    CreateContainerRequest rewritten =
        CreateRewriter.rewrite(request, edits, reserved.requested(), mount);
    CompletableFuture<Void> sent = updates.takeStepSends();
    if (mount.isEmpty()) {
      return new Reservation(cacheId, created.seq(), rewritten, sent, null);
    }
    ExportedResources exports = s.exports();
    if (!sent.isDone()) {
      // The create goes out from the thread that hears of the updates, a transport thread: the
      // file is written here instead.
      exports.writePending(cacheId);
      return new Reservation(cacheId, created.seq(), rewritten, sent, null);
    }
    // Written while the runtime creates the container, before the create is answered.
    return new Reservation(
        cacheId, created.seq(), rewritten, sent, () -> exports.writePending(cacheId));
  }

  /** The container under the adjustment that applies to it; a conflict fails the creation. */
  private static Container adjusted(Section s, Pod pod, Container created) {
    try {
      return created.withAdjustment(s.adjustments().resolve(created, pod));
    } catch (AdjustmentException e) {
      throw new RequestException(
          Status.Code.FAILED_PRECONDITION,
          "cannot create container " + created.cacheId() + ": " + e.getMessage(),
          e);
    }
  }

  private static void allocate(Section s, Container created) {
    try {
      s.decide(p -> p.allocate(created, s.cache()), Set.of(created.cacheId()));
    } catch (PolicyException | IllegalArgumentException e) {
      String message =
          "failed to allocate resources of container " + created.cacheId() + ": " + e.getMessage();
      s.refused(created, message, e);
      s.remove(created.cacheId());
      throw new RequestException(Status.Code.RESOURCE_EXHAUSTED, message, e);
    }
  }

  private static final Set<String> CRI = Set.of(CriController.NAME);

  /**
   * Unified files controllers claimed become part of the container's request in the cache, so that
   * later enforcement (the cgroups controller, updates the pipeline sends) keeps them instead of
   * kubelet's original values, also after a restart.
   */
  static void keepClaims(Section s, String cacheId, ContainerEdits edits) {
    if (edits.unified().isEmpty()) {
      return;
    }
    Container c = s.cache().container(cacheId).orElseThrow();
    s.put(c.withRequested(c.requested().withUnified(edits.unified()), c.resources()));
  }

  private static ContainerEdits preCreate(Section s, String cacheId) {
    Container allocated = s.cache().container(cacheId).orElseThrow();
    ContainerEdits edits = new ContainerEdits();
    try {
      Set<String> done = s.controllers().preCreate(allocated, edits);
      // Only the CRI controller has enforced the assignment once the request is rewritten; host
      // controllers enforce at StartContainer and stay pending until then.
      s.clearPending(cacheId, done.contains(CriController.NAME) ? CRI : Set.of());
      keepClaims(s, cacheId, edits);
    } catch (ControllerException e) {
      s.release(allocated, ContainerState.STALE);
      throw new RequestException(
          Status.Code.FAILED_PRECONDITION,
          "cannot create container " + cacheId + ": " + e.getMessage(),
          e);
    }
    return edits;
  }

  private void commit(
      Section s,
      Reservation reservation,
      @Nullable CreateContainerResponse reply,
      @Nullable Throwable error) {
    Container c =
        s.cache()
            .container(reservation.cacheId())
            .filter(x -> x.seq() == reservation.seq() && x.state() == ContainerState.CREATING)
            .orElse(null);
    if (error != null) {
      if (c != null) {
        s.release(c, ContainerState.STALE);
        // The rollback's updates of other containers need not delay the error reply.
        var unused = updates.takeStepSends(); // a failed send is logged and reported by updates
      }
      return;
    }
    CreateContainerResponse response = Objects.requireNonNull(reply);
    if (c == null) {
      LOG.warn(
          "container {} was released while the runtime created it as {}",
          reservation.cacheId(),
          response.getContainerId());
      return;
    }
    Container committed = c.withId(response.getContainerId()).withState(ContainerState.CREATED);
    s.put(committed);
    if (!committed.pending().isEmpty()) {
      // Decided again while the runtime was creating it: enforce the newer assignment now.
      s.postUpdate(committed);
    }
  }
}
