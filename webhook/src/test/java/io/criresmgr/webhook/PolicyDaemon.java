package io.criresmgr.webhook;

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
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.InstrumentationConfig;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.relay.EventLoops;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.criresmgr.proxy.sim.SimOptions;
import io.criresmgr.proxy.sim.SimRuntime;
import io.criresmgr.proxy.sim.SimRuntimeServer;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real cri-resmgr daemon in this JVM, with {@code policy} on the fake sysfs of {@code spec}, in
 * front of the simulated runtime; and kubelet's side: pods and containers through the daemon's
 * relay socket, the resources the runtime got read straight from the runtime.
 */
final class PolicyDaemon implements AutoCloseable {
  private static final String IMAGE = "docker.io/library/busybox:latest";

  private final SimRuntimeServer sim;
  private final Daemon daemon;
  private final EventLoopGroup loops = EventLoops.epoll("test-kubelet", 1);
  private final ManagedChannel relay;
  private final ManagedChannel runtime;

  private PolicyDaemon(Path dir, SimRuntimeServer sim, Daemon daemon) {
    this.sim = sim;
    this.daemon = daemon;
    relay = RuntimeChannels.channel(dir.resolve("relay/cri-resmgr.sock"), loops);
    runtime = RuntimeChannels.channel(sim.socket(), loops);
  }

  /** Starts the runtime and the daemon in {@code dir}; 1 CPU reserved, metrics off :8891. */
  static PolicyDaemon start(Path dir, TopologySpec spec, String policy)
      throws IOException, InterruptedException {
    FakeSysfsWriter.write(spec, dir.resolve("host"));
    SimRuntime simRuntime =
        new SimRuntime(
            SimOptions.defaults().withRuntimeName("containerd").withImages(List.of(IMAGE)));
    SimRuntimeServer sim = new SimRuntimeServer(dir.resolve("runtime/containerd.sock"), simRuntime);
    sim.start();
    try {
      Daemon daemon = Daemon.start(options(dir, sim.socket()), new ConfigStore(config(policy)));
      return new PolicyDaemon(dir, sim, daemon);
    } catch (RuntimeException | InterruptedException e) {
      sim.close();
      throw e;
    }
  }

  private static DaemonOptions options(Path dir, Path runtimeSocket) {
    return new DaemonOptions(
        runtimeSocket,
        runtimeSocket,
        dir.resolve("relay/cri-resmgr.sock"),
        dir.resolve("state"),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        dir.resolve("host"),
        dir.resolve("host/sys/fs/cgroup"),
        dir.resolve("cri-resmgr.pid"),
        false,
        Duration.ZERO,
        false);
  }

  private static Config config(String policy) {
    Config defaults = Config.defaults();
    return new Config(
        new PolicyConfig(policy, Map.of(), Map.of("CPU", "1"), Map.of()),
        defaults.resourceManager(),
        defaults.dump(),
        defaults.logger(),
        new InstrumentationConfig("disabled", Duration.ofSeconds(15), "", "", "127.0.0.1:0", true),
        defaults.controllerSections());
  }

  /**
   * Runs a Burstable pod {@code pod} with {@code annotations} and creates its container {@code
   * name} as kubelet does for requests of {@code cpuShares} and no limits; returns the container's
   * id.
   */
  String runBurstable(String pod, Map<String, String> annotations, String name, long cpuShares) {
    String uid = "uid-" + pod;
    PodSandboxConfig sandbox =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder().setName(pod).setNamespace("default").setUid(uid))
            .putAllAnnotations(annotations)
            .setLinux(
                LinuxPodSandboxConfig.newBuilder().setCgroupParent("/kubepods/burstable/pod" + uid))
            .build();
    String podId =
        stub(relay)
            .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(sandbox).build())
            .getPodSandboxId();
    return stub(relay)
        .createContainer(
            CreateContainerRequest.newBuilder()
                .setPodSandboxId(podId)
                .setConfig(container(name, cpuShares))
                .setSandboxConfig(sandbox)
                .build())
        .getContainerId();
  }

  // No CPU quota and no memory limit: what kubelet sends for requests without limits.
  private static ContainerConfig container(String name, long cpuShares) {
    LinuxContainerResources resources =
        LinuxContainerResources.newBuilder().setCpuShares(cpuShares).setCpuPeriod(100_000).build();
    return ContainerConfig.newBuilder()
        .setMetadata(ContainerMetadata.newBuilder().setName(name))
        .setImage(ImageSpec.newBuilder().setImage(IMAGE))
        .addCommand("sleep")
        .setLinux(LinuxContainerConfig.newBuilder().setResources(resources))
        .build();
  }

  /** The resources the runtime applies to container {@code id}. */
  LinuxContainerResources resources(String id) {
    return stub(runtime)
        .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build())
        .getStatus()
        .getResources()
        .getLinux();
  }

  private static RuntimeServiceBlockingStub stub(ManagedChannel channel) {
    return RuntimeServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  /** Closes the channels, stops the daemon, then the runtime. */
  @Override
  public void close() {
    relay.shutdownNow();
    runtime.shutdownNow();
    EventLoops.shutdown(loops);
    try {
      daemon.close();
    } finally {
      sim.close();
    }
  }
}
