package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.ContainerStatusResponse;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.proxy.core.cri.ContainerUses;
import io.criresmgr.proxy.core.cri.PodCodec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Start-up reconciliation (docs/adr/0004-runtime-is-the-truth-at-start.md): the runtime is the
 * truth. Reads the runtime's pods and containers, then in one pipeline step drops what vanished,
 * refreshes what is known and adopts what is new (see {@link Reconciler}). The device hints of
 * containers to adopt are looked up before that step, off the pipeline thread, from their verbose
 * status ({@link ContainerUses}).
 */
public final class StartupSync {
  private StartupSync() {}

  /**
   * Lists the runtime and reconciles the cache with it; blocks until done.
   *
   * @throws SyncException if the runtime cannot be listed
   */
  public static Reconciler.Outcome run(ResourceManager manager) throws InterruptedException {
    RuntimeClient runtime = manager.runtime();
    List<PodSandbox> pods =
        await(
                runtime.callOwn(
                    RuntimeServiceGrpc.getListPodSandboxMethod(),
                    ListPodSandboxRequest.getDefaultInstance()))
            .getItemsList();
    List<io.criresmgr.api.runtime.v1.Container> containers =
        await(
                runtime.callOwn(
                    RuntimeServiceGrpc.getListContainersMethod(),
                    ListContainersRequest.getDefaultInstance()))
            .getContainersList();
    Set<String> knownPods =
        await(
            manager
                .pipeline()
                .run(s -> Set.copyOf(s.cache().pods().stream().map(Pod::id).toList())));
    Map<String, Pod> newPods = new HashMap<>();
    for (PodSandbox item : pods) {
      if (!knownPods.contains(item.getId())) {
        PodSandboxStatusResponse status =
            awaitUnlessGone(
                runtime.callOwn(
                    RuntimeServiceGrpc.getPodSandboxStatusMethod(),
                    PodSandboxStatusRequest.newBuilder()
                        .setPodSandboxId(item.getId())
                        .setVerbose(true)
                        .build()));
        if (status != null) {
          newPods.put(item.getId(), PodCodec.fromStatus(item, status));
        }
      }
    }
    Set<String> knownContainers =
        await(
            manager
                .pipeline()
                .run(s -> Set.copyOf(s.cache().containers().stream().map(Container::id).toList())));
    Map<String, io.criresmgr.api.runtime.v1.ContainerStatus> statuses = new HashMap<>();
    Map<String, CompletableFuture<List<TopologyHint>>> lookups = new HashMap<>();
    for (io.criresmgr.api.runtime.v1.Container c : containers) {
      if (c.getState() != io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_EXITED) {
        // A container to adopt has no hints in the cache: its verbose status tells its devices.
        boolean adopting = !knownContainers.contains(c.getId());
        ContainerStatusResponse status =
            awaitUnlessGone(
                runtime.callOwn(
                    RuntimeServiceGrpc.getContainerStatusMethod(),
                    ContainerStatusRequest.newBuilder()
                        .setContainerId(c.getId())
                        .setVerbose(adopting)
                        .build()));
        if (status != null) {
          statuses.put(c.getId(), status.getStatus());
          if (adopting) {
            lookups.put(
                c.getId(),
                manager.adoptedHints(c.getMetadata().getName(), ContainerUses.of(status)));
          }
        }
      }
    }
    Map<String, List<TopologyHint>> hints = new HashMap<>();
    lookups.forEach((id, lookup) -> hints.put(id, lookup.join())); // bounded, never failing
    Reconciler.Input input = new Reconciler.Input(pods, newPods, containers, statuses, hints);
    RuntimeUpdates updates = manager.updates();
    Reconciled done =
        await(
            manager
                .pipeline()
                .run(
                    s -> {
                      Reconciler.Outcome outcome = new Reconciler(s).reconcile(input);
                      s.exports().reconcile(s);
                      return new Reconciled(outcome, updates.takeStepSends());
                    }));
    // Serve only once the runtime applied what reconciliation decided: a request arriving before
    // would be placed against assignments the runtime does not have yet.
    await(done.sent());
    return done.outcome();
  }

  private record Reconciled(Reconciler.Outcome outcome, CompletableFuture<Void> sent) {}

  /** Like {@link #await}, but null if the object vanished since it was listed. */
  private static <T> @Nullable T awaitUnlessGone(CompletableFuture<T> future)
      throws InterruptedException {
    try {
      return await(future);
    } catch (SyncException e) {
      if (e.getCause() != null && ContainerRequests.isNotFound(e.getCause())) {
        return null;
      }
      throw e;
    }
  }

  private static <T> T await(CompletableFuture<T> future) throws InterruptedException {
    try {
      return future.get(RuntimeClient.OWN_DEADLINE_SECONDS + 5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new SyncException(
          "cannot synchronize with the runtime: " + Errors.unwrap(e).getMessage(), e);
    } catch (TimeoutException e) {
      throw new SyncException("cannot synchronize with the runtime: no answer", e);
    }
  }

  /** Containers listed by the runtime, oldest first. */
  static List<io.criresmgr.api.runtime.v1.Container> byCreation(
      List<io.criresmgr.api.runtime.v1.Container> listed) {
    List<io.criresmgr.api.runtime.v1.Container> sorted = new ArrayList<>(listed);
    sorted.sort(
        Comparator.comparingLong(io.criresmgr.api.runtime.v1.Container::getCreatedAt)
            .thenComparing(io.criresmgr.api.runtime.v1.Container::getId));
    return sorted;
  }
}
