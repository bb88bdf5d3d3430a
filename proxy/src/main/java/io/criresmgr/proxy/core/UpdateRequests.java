package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesResponse;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.ResourceEstimator;
import io.criresmgr.cache.Resources;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.proxy.core.cri.LinuxResourcesCodec;
import io.grpc.Status;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubelet's UpdateContainerResources (docs/architecture.md, "The pipeline"): the new request goes
 * into the cache, the policy re-decides, and the request is forwarded with the decision merged in.
 * cri-resmgr dropped these requests; forwarding them keeps in-place resizes and kubelet's CPU
 * manager working.
 */
public final class UpdateRequests {
  private static final Logger LOG = LoggerFactory.getLogger(UpdateRequests.class);

  private final RequestFlow flow;
  private final RuntimeUpdates updates;

  /** Requests through {@code pipeline}, calling {@code runtime}, waiting for {@code updates}. */
  public UpdateRequests(Pipeline pipeline, RuntimeClient runtime, RuntimeUpdates updates) {
    this.flow = new RequestFlow(pipeline, runtime);
    this.updates = Objects.requireNonNull(updates, "updates");
  }

  /** A prepared update: the merged request goes out once the implied updates are {@code sent}. */
  private record Prepared(
      Container before,
      Assignment decided,
      UpdateContainerResourcesRequest request,
      CompletableFuture<Void> sent)
      implements RequestFlow.Decision<UpdateContainerResourcesRequest> {
    @Override
    public CompletableFuture<?> ready() {
      return sent;
    }
  }

  /** Handles one UpdateContainerResources. */
  public CompletableFuture<UpdateContainerResourcesResponse> update(
      UpdateContainerResourcesRequest request, CallScope scope) {
    return flow.decideCallSettle(
        scope,
        RuntimeServiceGrpc.getUpdateContainerResourcesMethod(),
        request,
        s -> prepare(s, request),
        this::finish);
  }

  private @Nullable Prepared prepare(Section s, UpdateContainerResourcesRequest request) {
    Container before = s.cache().containerById(request.getContainerId()).orElse(null);
    if (before == null || !before.state().isActive() || !request.hasLinux()) {
      return null;
    }
    LinuxResources requested = LinuxResourcesCodec.fromProto(request.getLinux());
    Container asked =
        before.withRequested(
            requested, resources(s, before, requested, request.getLinux().getOomScoreAdj()));
    // Claimed files stay part of the request in the cache, as at CreateContainer.
    Map<String, String> unified = preUpdate(s, asked);
    Container updated = asked.withRequested(requested.withUnified(unified), asked.resources());
    s.put(updated);
    try {
      s.decide(p -> p.update(updated, s.cache()), Set.of(updated.cacheId()));
    } catch (PolicyException | IllegalArgumentException e) {
      s.put(before);
      throw new RequestException(
          Status.Code.RESOURCE_EXHAUSTED,
          "cannot update resources of container " + before.cacheId() + ": " + e.getMessage(),
          e);
    }
    Container decided = s.cache().container(before.cacheId()).orElseThrow();
    UpdateContainerResourcesRequest merged =
        request.toBuilder()
            .setLinux(LinuxResourcesCodec.applyTo(request.getLinux(), decided.effectiveResources()))
            .build();
    return new Prepared(before, decided.assignment(), merged, updates.takeStepSends());
  }

  /** Unified files controllers add to the update; a refusal fails it before anything changed. */
  private static Map<String, String> preUpdate(Section s, Container updated) {
    ContainerEdits edits = new ContainerEdits();
    try {
      s.controllers().preUpdate(updated, edits);
    } catch (ControllerException e) {
      throw new RequestException(
          Status.Code.FAILED_PRECONDITION,
          "cannot update resources of container " + updated.cacheId() + ": " + e.getMessage(),
          e);
    }
    return edits.unified();
  }

  /**
   * The webhook's annotation stays authoritative; without it, estimate from the new request, a
   * Burstable memory request from the OOM score adjustment kubelet sends with it.
   */
  private static Resources resources(
      Section s, Container c, LinuxResources requested, long oomScoreAdj) {
    Pod pod = s.cache().pod(c.podId()).orElse(null);
    if (pod != null && pod.resources().find(c.name()).isPresent()) {
      return c.resources();
    }
    return ResourceEstimator.estimate(requested, c.qosClass(), oomScoreAdj, s.memoryCapacity());
  }

  private UpdateContainerResourcesResponse finish(
      Section s,
      Prepared prepared,
      @Nullable UpdateContainerResourcesResponse reply,
      @Nullable Throwable error) {
    String cacheId = prepared.before().cacheId();
    Container now = s.cache().container(cacheId).orElse(null);
    if (error == null) {
      if (now != null) {
        if (now.assignment().equals(prepared.decided())) {
          s.clearPending(cacheId, Set.of(CriController.NAME));
        }
        Container cleared = s.cache().container(cacheId).orElseThrow();
        if (!cleared.pending().isEmpty()) {
          s.postUpdate(cleared);
        }
      }
      return Objects.requireNonNull(reply);
    }
    if (now != null && now.state().isActive()) {
      Container restored =
          now.withRequested(prepared.before().requested(), prepared.before().resources());
      s.put(restored);
      try {
        s.decide(p -> p.update(restored, s.cache()), Set.of());
      } catch (PolicyException e) {
        LOG.warn("rolling back the update of {}: {}", cacheId, e.getMessage());
      }
      var unused = updates.takeStepSends(); // a failed send is logged and reported by updates
    }
    throw Errors.rethrow(error);
  }
}
