package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesResponse;
import io.criresmgr.cache.Assignment;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the pipeline's own UpdateContainerResources calls to the runtime without holding the
 * serialized section. Updates of one container go out one after the other in the order they were
 * decided; updates of different containers run concurrently.
 */
public final class RuntimeUpdates {
  private static final Logger LOG = LoggerFactory.getLogger(RuntimeUpdates.class);

  /** Told when an update failed, so the container's change stays pending. */
  @FunctionalInterface
  public interface FailureListener {
    /** The update of {@code cacheId} to {@code assignment} did not reach the runtime. */
    void updateFailed(String cacheId, Assignment assignment);
  }

  private final RuntimeClient runtime;
  private final Map<String, CompletableFuture<Void>> tails = new ConcurrentHashMap<>();
  private final List<CompletableFuture<Void>> stepSends = new ArrayList<>();
  private volatile FailureListener failures = (id, a) -> {};

  /** Sends through {@code runtime}. */
  public RuntimeUpdates(RuntimeClient runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  /** Sets who hears of failed updates. */
  public void onFailure(FailureListener listener) {
    failures = Objects.requireNonNull(listener, "listener");
  }

  /**
   * Queues an update of container {@code id} behind its earlier ones. Called on the pipeline
   * thread; the returned future never fails (failures are logged and reported).
   */
  public CompletableFuture<Void> send(
      String cacheId, String id, LinuxContainerResources linux, Assignment assignment) {
    UpdateContainerResourcesRequest request =
        UpdateContainerResourcesRequest.newBuilder().setContainerId(id).setLinux(linux).build();
    CompletableFuture<Void> tail = tails.get(cacheId);
    CompletableFuture<Void> sent =
        tail == null
            ? call(cacheId, id, request, assignment)
            : tail.thenCompose(ignored -> call(cacheId, id, request, assignment));
    // An update answered already (a runtime that answers on the calling thread) has nothing to
    // order behind it and nothing to wait for: no tail, no step send. A decision may update
    // hundreds of containers (docs/benchmarks.md, "Issue 20: re-assigned containers").
    if (!sent.isDone()) {
      tails.put(cacheId, sent);
      var unused = sent.whenComplete((v, e) -> tails.remove(cacheId, sent)); // sent never fails
      stepSends.add(sent);
    }
    return sent;
  }

  /**
   * Sends {@code request}; the returned future completes when the runtime answered and never fails
   * (a failure is logged and reported). The future is the call's outcome itself: one object per
   * update, which a decision makes for hundreds of containers (docs/benchmarks.md, "Issue 20:
   * re-assigned containers, fourth round").
   */
  private CompletableFuture<Void> call(
      String cacheId, String id, UpdateContainerResourcesRequest request, Assignment assignment) {
    Update update = new Update(cacheId, id, assignment);
    runtime.callOwn(RuntimeServiceGrpc.getUpdateContainerResourcesMethod(), request, update);
    return update;
  }

  /** One update's context and its completion. */
  private final class Update extends CompletableFuture<Void>
      implements RuntimeClient.Outcome<UpdateContainerResourcesResponse> {
    private final String cacheId;
    private final String id;
    private final Assignment assignment;

    Update(String cacheId, String id, Assignment assignment) {
      this.cacheId = cacheId;
      this.id = id;
      this.assignment = assignment;
    }

    @Override
    public void done(
        @Nullable UpdateContainerResourcesResponse reply,
        @Nullable StatusRuntimeException failure) {
      try {
        if (failure != null) {
          Status status = failure.getStatus();
          if (status.getCode() != Status.Code.NOT_FOUND) {
            LOG.warn("cannot update resources of container {} ({}): {}", cacheId, id, status);
            failures.updateFailed(cacheId, assignment);
          }
        }
      } finally {
        complete(null); // whatever the listener does: the step waiting for the sends must not hang
      }
    }
  }

  /**
   * Everything sent since the last call completes; called on the pipeline thread at the end of a
   * step whose request must not go on before the updates it implied.
   */
  public CompletableFuture<Void> takeStepSends() {
    CompletableFuture<Void> all =
        CompletableFuture.allOf(stepSends.toArray(CompletableFuture[]::new));
    stepSends.clear();
    return all;
  }
}
