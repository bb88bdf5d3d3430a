package io.criresmgr.testkit;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Kubelet's part for integration tests: runs pods and containers through the daemon's relay socket,
 * and reads the resources the runtime applied straight from the runtime.
 */
public final class KubeletClient implements AutoCloseable {
  private final EventLoopGroup loops = EventLoops.epoll("test-kubelet", 1);
  private final ManagedChannel relay;
  private final ManagedChannel runtime;

  /** Calls the daemon on {@code relaySocket} and the runtime on {@code runtimeSocket}. */
  public KubeletClient(Path relaySocket, Path runtimeSocket) {
    relay = RuntimeChannels.channel(relaySocket, loops);
    runtime = RuntimeChannels.channel(runtimeSocket, loops);
  }

  /** The container resources of {@link #runContainer(String, String, String)}: 1 CPU, 128 MiB. */
  public static final LinuxContainerResources ONE_CPU =
      LinuxContainerResources.newBuilder()
          .setCpuShares(1024)
          .setCpuPeriod(100_000)
          .setCpuQuota(100_000)
          .setMemoryLimitInBytes(128L << 20)
          .build();

  /** Runs pod {@code pod} of namespace {@code default} with container {@code name}; its id. */
  public String runContainer(String pod, String name, String image) {
    return runContainer(pod, name, image, "");
  }

  /**
   * Runs container {@code name} ({@link #ONE_CPU}) in pod {@code pod} of namespace {@code default}
   * whose cgroup parent is {@code cgroupParent} (which tells its QoS class: {@code
   * /kubepods/burstable/...} is Burstable, empty BestEffort); its id.
   */
  public String runContainer(String pod, String name, String image, String cgroupParent) {
    return run(pod, Map.of(), cgroupParent, name, image, ONE_CPU);
  }

  /**
   * Runs pod {@code pod} of namespace {@code default} (uid {@code uid-<pod>}) with {@code
   * annotations} and {@code cgroupParent}, then creates and starts its container {@code name} of
   * {@code image} with the {@code resources} kubelet would send; the container's id.
   */
  public String run(
      String pod,
      Map<String, String> annotations,
      String cgroupParent,
      String name,
      String image,
      LinuxContainerResources resources) {
    PodSandboxConfig sandbox =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder()
                    .setName(pod)
                    .setNamespace("default")
                    .setUid("uid-" + pod))
            .putAllAnnotations(annotations)
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent(cgroupParent))
            .build();
    String podId =
        stub(relay)
            .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(sandbox).build())
            .getPodSandboxId();
    String id =
        stub(relay)
            .createContainer(
                CreateContainerRequest.newBuilder()
                    .setPodSandboxId(podId)
                    .setConfig(container(name, image, resources))
                    .setSandboxConfig(sandbox)
                    .build())
            .getContainerId();
    stub(relay).startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    return id;
  }

  private static ContainerConfig container(
      String name, String image, LinuxContainerResources resources) {
    return ContainerConfig.newBuilder()
        .setMetadata(ContainerMetadata.newBuilder().setName(name))
        .setImage(ImageSpec.newBuilder().setImage(image))
        .addCommand("sleep")
        .setLinux(LinuxContainerConfig.newBuilder().setResources(resources))
        .build();
  }

  /** The linux resources the runtime applies to container {@code id} now. */
  public LinuxContainerResources resources(String id) {
    return stub(runtime)
        .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build())
        .getStatus()
        .getResources()
        .getLinux();
  }

  /** The cpuset the runtime applies to container {@code id} now. */
  public String cpuset(String id) {
    return resources(id).getCpusetCpus();
  }

  /** The runtime service through the daemon's relay socket, as kubelet calls it. */
  public RuntimeServiceBlockingStub relay() {
    return stub(relay);
  }

  /** The runtime service on the runtime's own socket, past the daemon. */
  public RuntimeServiceBlockingStub runtime() {
    return stub(runtime);
  }

  private static RuntimeServiceBlockingStub stub(ManagedChannel channel) {
    return RuntimeServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    relay.shutdownNow();
    runtime.shutdownNow();
    EventLoops.shutdown(loops);
  }
}
