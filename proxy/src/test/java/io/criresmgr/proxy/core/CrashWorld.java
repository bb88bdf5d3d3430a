package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.grpc.Channel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the simulated runtime holds, read directly from its socket (not through the daemon): the
 * truth that the workload acts on and that the daemon's cache must match.
 *
 * @param pods every sandbox
 * @param containers every container, in listing order
 */
record CrashWorld(List<PodSandbox> pods, List<Container> containers) {
  CrashWorld {
    pods = List.copyOf(pods);
    containers = List.copyOf(containers);
  }

  /** Lists the runtime behind {@code runtime}. */
  static CrashWorld read(Channel runtime) {
    var stub = RuntimeServiceGrpc.newBlockingStub(runtime).withDeadlineAfter(10, TimeUnit.SECONDS);
    return new CrashWorld(
        stub.listPodSandbox(ListPodSandboxRequest.getDefaultInstance()).getItemsList(),
        stub.listContainers(ListContainersRequest.getDefaultInstance()).getContainersList());
  }

  /** Status (with linux resources) of every container that holds resources, by id. */
  static Map<String, ContainerStatus> holdingStatuses(Channel runtime, CrashWorld world) {
    var stub = RuntimeServiceGrpc.newBlockingStub(runtime).withDeadlineAfter(10, TimeUnit.SECONDS);
    Map<String, ContainerStatus> statuses = new LinkedHashMap<>();
    for (Container c : world.holding()) {
      statuses.put(
          c.getId(),
          stub.containerStatus(
                  ContainerStatusRequest.newBuilder().setContainerId(c.getId()).build())
              .getStatus());
    }
    return statuses;
  }

  /** Sandboxes in state ready. */
  List<PodSandbox> readyPods() {
    return pods.stream().filter(p -> p.getState() == PodSandboxState.SANDBOX_READY).toList();
  }

  /** Sandboxes that were stopped. */
  List<PodSandbox> stoppedPods() {
    return pods.stream().filter(p -> p.getState() != PodSandboxState.SANDBOX_READY).toList();
  }

  /** Containers in {@code state}. */
  List<Container> inState(ContainerState state) {
    return containers.stream().filter(c -> c.getState() == state).toList();
  }

  /** Created and running containers. */
  List<Container> live() {
    return containers.stream().filter(CrashWorld::isLive).toList();
  }

  /**
   * Created and running containers of ready pods: those that hold resources. A stopped pod's
   * containers hold none (the daemon releases them all on StopPodSandbox), although the runtime
   * keeps a created one in state created.
   */
  List<Container> holding() {
    return live().stream().filter(c -> readyPod(c.getPodSandboxId()).isPresent()).toList();
  }

  /** Containers that hold resources and want an exclusive CPU. */
  long liveExclusive() {
    return holding().stream()
        .filter(c -> CrashRequests.isExclusive(c.getMetadata().getName()))
        .count();
  }

  /** The sandbox {@code id}, if it exists and is ready. */
  Optional<PodSandbox> readyPod(String id) {
    return readyPods().stream().filter(p -> p.getId().equals(id)).findFirst();
  }

  /** Whether {@code pod} has a created or running container named {@code name}. */
  boolean hasLive(String podId, String name) {
    return live().stream()
        .anyMatch(c -> c.getPodSandboxId().equals(podId) && c.getMetadata().getName().equals(name));
  }

  /** The highest attempt of container {@code name} in {@code pod}. */
  int lastAttempt(String podId, String name) {
    return containers.stream()
        .filter(c -> c.getPodSandboxId().equals(podId) && c.getMetadata().getName().equals(name))
        .mapToInt(c -> c.getMetadata().getAttempt())
        .max()
        .orElse(-1);
  }

  static boolean isLive(Container c) {
    return c.getState() == ContainerState.CONTAINER_CREATED
        || c.getState() == ContainerState.CONTAINER_RUNNING;
  }
}
