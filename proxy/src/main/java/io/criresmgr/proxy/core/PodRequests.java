package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxResponse;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxResponse;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.proxy.core.cri.PodCodec;
import io.grpc.Status;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** RunPodSandbox, StopPodSandbox and RemovePodSandbox: the runtime first, then the cache. */
public final class PodRequests {
  private static final Logger LOG = LoggerFactory.getLogger(PodRequests.class);

  private final RequestFlow flow;
  private final RuntimeClient runtime;

  /** Requests through {@code pipeline}, calling {@code runtime}. */
  public PodRequests(Pipeline pipeline, RuntimeClient runtime) {
    this.flow = new RequestFlow(pipeline, runtime);
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  /** A RunPodSandbox, ready once no live sandbox shares its pod's UID. */
  private record Run(RunPodSandboxRequest request, CompletableFuture<?> ready)
      implements RequestFlow.Decision<RunPodSandboxRequest> {}

  /**
   * Checks the pod's resource annotation before the runtime sees the request, then records the pod.
   * An older pod with the same UID (kubelet re-created the sandbox) is dropped with its containers;
   * if the runtime still runs containers of it, the request is refused instead: containers are
   * known by pod UID and name, so dropping them would give their CPUs away while they run.
   */
  public CompletableFuture<RunPodSandboxResponse> run(
      RunPodSandboxRequest request, CallScope scope) {
    Pod pod;
    try {
      pod = PodCodec.fromRequest("", request);
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(
          new RequestException(
              Status.Code.INVALID_ARGUMENT,
              Objects.requireNonNullElse(e.getMessage(), e.toString()),
              e));
    }
    return flow.decideCallSettle(
        scope,
        RuntimeServiceGrpc.getRunPodSandboxMethod(),
        request,
        s -> new Run(request, refuseLive(pod, sameUid(s, pod.uid()), scope)),
        (s, run, reply, error) -> {
          if (error != null) {
            throw Errors.rethrow(error);
          }
          return insert(s, request, Objects.requireNonNull(reply));
        });
  }

  /** The cached sandboxes with UID {@code uid} that have active containers. */
  private static List<String> sameUid(Section s, String uid) {
    if (uid.isEmpty()) {
      return List.of();
    }
    return s.cache().pods().stream()
        .filter(p -> p.uid().equals(uid))
        .map(Pod::id)
        .filter(id -> s.cache().containersOf(id).stream().anyMatch(c -> c.state().isActive()))
        .toList();
  }

  /** Fails if the runtime runs (or holds created) containers of any of {@code others}. */
  private CompletableFuture<Void> refuseLive(Pod pod, List<String> others, CallScope scope) {
    CompletableFuture<Void> all = CompletableFuture.completedFuture(null);
    for (String other : others) {
      ListContainersRequest list =
          ListContainersRequest.newBuilder()
              .setFilter(ContainerFilter.newBuilder().setPodSandboxId(other))
              .build();
      all =
          all.thenCompose(
                  ok ->
                      runtime.call(
                          RuntimeServiceGrpc.getListContainersMethod(), list, scope.deadline()))
              .thenAccept(reply -> refuseIfLive(pod, other, reply.getContainersList()));
    }
    return all;
  }

  private static void refuseIfLive(
      Pod pod, String other, List<io.criresmgr.api.runtime.v1.Container> containers) {
    List<String> live =
        containers.stream()
            .filter(
                c ->
                    c.getState() == io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING
                        || c.getState()
                            == io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_CREATED)
            .map(c -> c.getMetadata().getName())
            .toList();
    if (!live.isEmpty()) {
      throw new RequestException(
          Status.Code.FAILED_PRECONDITION,
          "pod "
              + pod.namespace()
              + "/"
              + pod.name()
              + " has UID "
              + pod.uid()
              + ", which sandbox "
              + other
              + " has too, with containers "
              + String.join(", ", live)
              + " still running; stop that sandbox first (two live pods must not share a UID)");
    }
  }

  private static RunPodSandboxResponse insert(
      Section s, RunPodSandboxRequest request, RunPodSandboxResponse reply) {
    Pod pod = PodCodec.fromRequest(reply.getPodSandboxId(), request);
    if (!pod.uid().isEmpty()) {
      for (Pod old : s.cache().pods()) {
        if (old.uid().equals(pod.uid()) && !old.id().equals(pod.id())) {
          LOG.info(
              "re-creation of pod {}/{}: dropping sandbox {}",
              pod.namespace(),
              pod.name(),
              old.id());
          s.releasePod(old.id(), ContainerState.STALE);
          s.cache().removePod(old.id());
        }
      }
    }
    s.cache().putPod(pod);
    return reply;
  }

  /** Stops in the runtime, then releases every container of the pod. */
  public CompletableFuture<StopPodSandboxResponse> stop(
      StopPodSandboxRequest request, CallScope scope) {
    String id = request.getPodSandboxId();
    return flow.callRecord(
        scope,
        RuntimeServiceGrpc.getStopPodSandboxMethod(),
        request,
        false,
        s ->
            s.cache()
                .pod(id)
                .ifPresent(
                    pod -> {
                      s.releasePod(id, ContainerState.EXITED);
                      s.cache().putPod(pod.withReady(false));
                    }));
  }

  /**
   * Removes in the runtime, then drops the pod and its containers. NOT_FOUND from the runtime
   * counts as removed; any other failure leaves the cache as it was.
   */
  public CompletableFuture<RemovePodSandboxResponse> remove(
      RemovePodSandboxRequest request, CallScope scope) {
    String id = request.getPodSandboxId();
    return flow.callRecord(
        scope,
        RuntimeServiceGrpc.getRemovePodSandboxMethod(),
        request,
        true,
        s -> {
          s.releasePod(id, ContainerState.STALE);
          s.cache().removePod(id);
        });
  }
}
