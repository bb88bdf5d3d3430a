package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.PullImageRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link SimRuntime} served in-process, with blocking and async stubs and request builders. */
final class InProcessSim implements AutoCloseable {
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  final FakeClock clock = new FakeClock(START);
  final SimRuntime sim;
  final RuntimeServiceGrpc.RuntimeServiceBlockingStub runtime;
  final RuntimeServiceGrpc.RuntimeServiceStub runtimeAsync;
  final ImageServiceGrpc.ImageServiceBlockingStub images;
  private final Server server;
  private final ManagedChannel channel;

  InProcessSim() {
    sim = new SimRuntime(SimOptions.defaults().withClock(clock).withIds(IdGenerator.sequential()));
    String name = InProcessServerBuilder.generateName();
    try {
      server = sim.addTo(InProcessServerBuilder.forName(name).directExecutor()).build().start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    runtime = RuntimeServiceGrpc.newBlockingStub(channel);
    runtimeAsync = RuntimeServiceGrpc.newStub(channel);
    images = ImageServiceGrpc.newBlockingStub(channel);
  }

  String pull(String image) {
    return images
        .pullImage(
            PullImageRequest.newBuilder().setImage(ImageSpec.newBuilder().setImage(image)).build())
        .getImageRef();
  }

  String runPod(String name) {
    return runtime
        .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(podConfig(name)).build())
        .getPodSandboxId();
  }

  String createContainer(String podId, String name, String image, LinuxContainerResources res) {
    return runtime.createContainer(createRequest(podId, name, image, res)).getContainerId();
  }

  /** Pulls busybox, runs a pod and creates and starts one container in it; returns its id. */
  String runningContainer(String podName) {
    pull("busybox");
    String podId = runPod(podName);
    String id =
        createContainer(podId, "c0", "busybox", LinuxContainerResources.getDefaultInstance());
    runtime.startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    return id;
  }

  /** The pod sandbox id of a container, as ListContainers reports it. */
  String podOf(String containerId) {
    return runtime
        .listContainers(
            ListContainersRequest.newBuilder()
                .setFilter(ContainerFilter.newBuilder().setId(containerId))
                .build())
        .getContainers(0)
        .getPodSandboxId();
  }

  static PodSandboxConfig podConfig(String name) {
    return PodSandboxConfig.newBuilder()
        .setMetadata(
            PodSandboxMetadata.newBuilder()
                .setName(name)
                .setNamespace("default")
                .setUid("uid-" + name))
        .setLogDirectory("/var/log/pods/default_" + name)
        .putLabels("app", name)
        .putAnnotations("note", "pod " + name)
        .build();
  }

  static CreateContainerRequest createRequest(
      String podId, String name, String image, LinuxContainerResources resources) {
    ContainerConfig config =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName(name))
            .setImage(ImageSpec.newBuilder().setImage(image))
            .addAllCommand(List.of("sleep", "inf"))
            .setLogPath(name + "/0.log")
            .putLabels("container", name)
            .putAnnotations("note", "container " + name)
            .setLinux(LinuxContainerConfig.newBuilder().setResources(resources))
            .build();
    return CreateContainerRequest.newBuilder()
        .setPodSandboxId(podId)
        .setConfig(config)
        .setSandboxConfig(podConfig("ignored"))
        .build();
  }

  @Override
  public void close() {
    channel.shutdownNow();
    server.shutdownNow();
    sim.close();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
