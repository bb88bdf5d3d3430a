package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemoveContainerResponse;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StartContainerResponse;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerResponse;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.policy.PolicyEvent;
import io.grpc.Status;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * StartContainer, StopContainer and RemoveContainer (the order per method:
 * docs/adr/0001-two-step-serialized-pipeline.md); CreateContainer is in {@link CreateRequests}.
 * Containers the cache does not know are passed through.
 */
public final class ContainerRequests {
  private final RequestFlow flow;

  /** Requests running through {@code pipeline} and calling {@code runtime}. */
  public ContainerRequests(Pipeline pipeline, RuntimeClient runtime) {
    this.flow = new RequestFlow(pipeline, runtime);
  }

  /** Refuses to start a container that is not in state created; records it running. */
  public CompletableFuture<StartContainerResponse> start(
      StartContainerRequest request, CallScope scope) {
    String id = request.getContainerId();
    return flow.decideCallSettle(
        scope,
        RuntimeServiceGrpc.getStartContainerMethod(),
        request,
        s -> checkStartable(s, id).map(known -> start(s, known, request)).orElse(null),
        (s, start, reply, error) -> {
          if (error != null) {
            throw Errors.rethrow(error);
          }
          return started(s, id, Objects.requireNonNull(reply));
        });
  }

  /** A StartContainer of a container the cache knows. */
  private record Start(StartContainerRequest request)
      implements RequestFlow.Decision<StartContainerRequest> {}

  /**
   * A start of {@code cacheId}: its exported file, if still pending (after a restart, or changed by
   * a step just before), is written first, so that the container never starts without it.
   */
  private static Start start(Section s, String cacheId, StartContainerRequest request) {
    s.exports().writePending(cacheId);
    return new Start(request);
  }

  private static Optional<String> checkStartable(Section s, String id) {
    Optional<Container> c = s.cache().containerById(id);
    if (c.isPresent() && c.get().state() != ContainerState.CREATED) {
      throw new RequestException(
          Status.Code.FAILED_PRECONDITION,
          "cannot start container "
              + c.get().cacheId()
              + " ("
              + id
              + "): it is "
              + c.get().state().name().toLowerCase(java.util.Locale.ROOT)
              + ", only a created container can be started");
    }
    return c.map(Container::cacheId);
  }

  private static StartContainerResponse started(
      Section s, String id, StartContainerResponse reply) {
    Optional<Container> found = s.cache().containerById(id);
    if (found.isEmpty() || found.get().state() != ContainerState.CREATED) {
      return reply;
    }
    Container running = found.get().withState(ContainerState.RUNNING);
    s.put(running);
    PolicyEvent event = new PolicyEvent(PolicyEvent.CONTAINER_STARTED, running.cacheId(), Map.of());
    s.decide(p -> p.handleEvent(event, s.cache()), Set.of());
    try {
      Container started = s.cache().container(running.cacheId()).orElse(running);
      // What failed stays pending: the next enforcement of this container tries again.
      s.clearPending(started.cacheId(), s.controllers().postStart(started));
    } catch (ControllerException e) {
      throw new RequestException(
          Status.Code.FAILED_PRECONDITION,
          Objects.requireNonNullElse(e.getMessage(), e.toString()),
          e);
    }
    return reply;
  }

  /** Stops in the runtime, then releases the container's resources. */
  public CompletableFuture<StopContainerResponse> stop(
      StopContainerRequest request, CallScope scope) {
    String id = request.getContainerId();
    return flow.callRecord(
        scope,
        RuntimeServiceGrpc.getStopContainerMethod(),
        request,
        false,
        s -> release(s, id, ContainerState.EXITED));
  }

  /**
   * Removes in the runtime, then drops the container from the cache. A runtime that no longer knows
   * the container (NOT_FOUND) counts as success for the cache; any other failure leaves the cache
   * as it was.
   */
  public CompletableFuture<RemoveContainerResponse> remove(
      RemoveContainerRequest request, CallScope scope) {
    String id = request.getContainerId();
    return flow.callRecord(
        scope,
        RuntimeServiceGrpc.getRemoveContainerMethod(),
        request,
        true,
        s -> release(s, id, ContainerState.STALE));
  }

  private static void release(Section s, String id, ContainerState newState) {
    s.cache().containerById(id).ifPresent(c -> s.release(c, newState));
  }

  static boolean isNotFound(Throwable error) {
    return Status.fromThrowable(Errors.unwrap(error)).getCode() == Status.Code.NOT_FOUND;
  }
}
