package io.criresmgr.proxy.nri;

import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.ContainerStatusResponse;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.CreateContainerResponse;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListContainersResponse;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxResponse;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemoveContainerResponse;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxResponse;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StartContainerResponse;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerResponse;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxResponse;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesResponse;
import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.PodSandbox;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime the pipeline calls in NRI mode: an in-process CRI RuntimeService answered from the
 * pods and containers NRI reported, so that the pipeline's requests run unchanged. The lifecycle
 * calls succeed at once (the real runtime does the work around the NRI call), a CreateContainer
 * keeps the request the pipeline rewrote, and UpdateContainerResources calls are kept until the
 * front end hands them to NRI. Listings and statuses serve start-up reconciliation at Synchronize.
 */
final class NriBackedRuntime extends RuntimeServiceGrpc.RuntimeServiceImplBase
    implements AutoCloseable {
  private static final AtomicLong NAMES = new AtomicLong();

  private final Object lock = new Object();
  private final Map<String, PodSandbox> pods = new LinkedHashMap<>();
  private final Set<String> stoppedPods = new HashSet<>();
  private final Map<String, Container> containers = new LinkedHashMap<>();
  private final Map<String, Long> createdAt = new HashMap<>();
  private final Map<String, CreateContainerRequest> created = new HashMap<>();
  private final Map<String, LinuxContainerResources> updates = new LinkedHashMap<>();
  private final AtomicLong clock = new AtomicLong();
  private final Server server;
  private final ManagedChannel channel;
  private volatile Runnable onUpdate = () -> {};

  private NriBackedRuntime() {
    String name = "cri-resmgr-nri-" + NAMES.incrementAndGet();
    try {
      server = InProcessServerBuilder.forName(name).directExecutor().addService(this).build();
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  /** A runtime serving in-process; close it to stop. */
  static NriBackedRuntime start() {
    return new NriBackedRuntime();
  }

  /** The channel the pipeline calls. */
  ManagedChannel channel() {
    return channel;
  }

  /** Runs {@code listener} after every UpdateContainerResources the pipeline sends. */
  void onUpdate(Runnable listener) {
    onUpdate = listener;
  }

  /** Replaces everything known with what Synchronize reported. */
  void reset(List<PodSandbox> allPods, List<Container> allContainers) {
    synchronized (lock) {
      pods.clear();
      stoppedPods.clear();
      containers.clear();
      created.clear();
      allPods.forEach(p -> pods.put(p.getId(), p));
      allContainers.forEach(this::putLocked);
    }
  }

  /** Records {@code pod} (new or changed). */
  void put(PodSandbox pod) {
    synchronized (lock) {
      pods.put(pod.getId(), pod);
    }
  }

  /** Records {@code container} (new or changed). */
  void put(Container container) {
    synchronized (lock) {
      putLocked(container);
    }
  }

  private void putLocked(Container container) {
    containers.put(container.getId(), container);
    createdAt.computeIfAbsent(container.getId(), id -> clock.incrementAndGet());
  }

  /** Forgets pod {@code id} and its containers. */
  void removePod(String id) {
    synchronized (lock) {
      pods.remove(id);
      stoppedPods.remove(id);
      containers.values().removeIf(c -> c.getPodSandboxId().equals(id));
    }
  }

  /** Forgets container {@code id}. */
  void removeContainer(String id) {
    synchronized (lock) {
      containers.remove(id);
      createdAt.remove(id);
      created.remove(id);
    }
  }

  /** The CreateContainer request the pipeline sent for container {@code id}, if it did. */
  Optional<CreateContainerRequest> takeCreated(String id) {
    synchronized (lock) {
      return Optional.ofNullable(created.remove(id));
    }
  }

  /** The updates sent since the last call, the last one per container, in order. */
  Map<String, LinuxContainerResources> takeUpdates() {
    synchronized (lock) {
      Map<String, LinuxContainerResources> out = new LinkedHashMap<>(updates);
      updates.clear();
      return out;
    }
  }

  @Override
  public void runPodSandbox(
      RunPodSandboxRequest request, StreamObserver<RunPodSandboxResponse> reply) {
    var m = request.getConfig().getMetadata();
    Optional<PodSandbox> pod;
    synchronized (lock) {
      pod =
          pods.values().stream()
              .filter(
                  p ->
                      p.getUid().equals(m.getUid())
                          && p.getName().equals(m.getName())
                          && p.getNamespace().equals(m.getNamespace()))
              .reduce((first, second) -> second);
    }
    answer(
        reply,
        pod.map(p -> RunPodSandboxResponse.newBuilder().setPodSandboxId(p.getId()).build()),
        "pod " + m.getNamespace() + "/" + m.getName());
  }

  @Override
  public void stopPodSandbox(
      StopPodSandboxRequest request, StreamObserver<StopPodSandboxResponse> reply) {
    synchronized (lock) {
      stoppedPods.add(request.getPodSandboxId());
    }
    answer(reply, StopPodSandboxResponse.getDefaultInstance());
  }

  @Override
  public void removePodSandbox(
      RemovePodSandboxRequest request, StreamObserver<RemovePodSandboxResponse> reply) {
    answer(reply, RemovePodSandboxResponse.getDefaultInstance());
  }

  @Override
  public void createContainer(
      CreateContainerRequest request, StreamObserver<CreateContainerResponse> reply) {
    String name = request.getConfig().getMetadata().getName();
    Optional<Container> found;
    synchronized (lock) {
      found =
          containers.values().stream()
              .filter(
                  c ->
                      c.getPodSandboxId().equals(request.getPodSandboxId())
                          && c.getName().equals(name))
              .reduce((first, second) -> second);
      found.ifPresent(c -> created.put(c.getId(), request));
    }
    answer(
        reply,
        found.map(c -> CreateContainerResponse.newBuilder().setContainerId(c.getId()).build()),
        "container " + name + " of pod " + request.getPodSandboxId());
  }

  @Override
  public void startContainer(
      StartContainerRequest request, StreamObserver<StartContainerResponse> reply) {
    answer(reply, StartContainerResponse.getDefaultInstance());
  }

  @Override
  public void stopContainer(
      StopContainerRequest request, StreamObserver<StopContainerResponse> reply) {
    answer(reply, StopContainerResponse.getDefaultInstance());
  }

  @Override
  public void removeContainer(
      RemoveContainerRequest request, StreamObserver<RemoveContainerResponse> reply) {
    answer(reply, RemoveContainerResponse.getDefaultInstance());
  }

  @Override
  public void updateContainerResources(
      UpdateContainerResourcesRequest request,
      StreamObserver<UpdateContainerResourcesResponse> reply) {
    synchronized (lock) {
      updates.remove(request.getContainerId());
      updates.put(request.getContainerId(), request.getLinux());
    }
    answer(reply, UpdateContainerResourcesResponse.getDefaultInstance());
    onUpdate.run();
  }

  @Override
  public void listPodSandbox(
      ListPodSandboxRequest request, StreamObserver<ListPodSandboxResponse> reply) {
    ListPodSandboxResponse.Builder out = ListPodSandboxResponse.newBuilder();
    synchronized (lock) {
      pods.values()
          .forEach(p -> out.addItems(NriToCri.listItem(p, !stoppedPods.contains(p.getId()))));
    }
    answer(reply, out.build());
  }

  @Override
  public void podSandboxStatus(
      PodSandboxStatusRequest request, StreamObserver<PodSandboxStatusResponse> reply) {
    String id = request.getPodSandboxId();
    Optional<PodSandboxStatusResponse> status;
    synchronized (lock) {
      status =
          Optional.ofNullable(pods.get(id)).map(p -> NriToCri.status(p, !stoppedPods.contains(id)));
    }
    answer(reply, status, "pod sandbox " + id);
  }

  @Override
  public void listContainers(
      ListContainersRequest request, StreamObserver<ListContainersResponse> reply) {
    String pod = request.getFilter().getPodSandboxId();
    String id = request.getFilter().getId();
    ListContainersResponse.Builder out = ListContainersResponse.newBuilder();
    synchronized (lock) {
      for (Container c : containers.values()) {
        if ((pod.isEmpty() || pod.equals(c.getPodSandboxId()))
            && (id.isEmpty() || id.equals(c.getId()))) {
          out.addContainers(NriToCri.listItem(c, createdAt.getOrDefault(c.getId(), 0L)));
        }
      }
    }
    answer(reply, out.build());
  }

  @Override
  public void containerStatus(
      ContainerStatusRequest request, StreamObserver<ContainerStatusResponse> reply) {
    String id = request.getContainerId();
    Optional<ContainerStatusResponse> status;
    synchronized (lock) {
      status =
          Optional.ofNullable(containers.get(id))
              .map(
                  c ->
                      ContainerStatusResponse.newBuilder()
                          .setStatus(NriToCri.status(c, createdAt.getOrDefault(id, 0L)))
                          .build());
    }
    answer(reply, status, "container " + id);
  }

  private static <T> void answer(StreamObserver<T> reply, T value) {
    reply.onNext(value);
    reply.onCompleted();
  }

  private static <T> void answer(StreamObserver<T> reply, Optional<T> value, String what) {
    if (value.isPresent()) {
      answer(reply, value.get());
    } else {
      reply.onError(
          Status.NOT_FOUND.withDescription(what + " is not known to NRI").asRuntimeException());
    }
  }

  @Override
  public void close() {
    channel.shutdownNow();
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
