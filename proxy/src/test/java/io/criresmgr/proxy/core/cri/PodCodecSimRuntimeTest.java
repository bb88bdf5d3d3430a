package io.criresmgr.proxy.core.cri;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.sim.SimRuntime;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link PodCodec} reads what the simulated runtime reports, as it reads containerd's. */
class PodCodecSimRuntimeTest {
  private static final String CGROUP_PARENT = "kubepods-burstable-poduid_web.slice";

  private final SimRuntime sim = new SimRuntime();
  private Server server;
  private ManagedChannel channel;
  private RuntimeServiceGrpc.RuntimeServiceBlockingStub runtime;

  @BeforeEach
  void serve() throws IOException {
    String name = InProcessServerBuilder.generateName();
    server = sim.addTo(InProcessServerBuilder.forName(name).directExecutor()).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    runtime = RuntimeServiceGrpc.newBlockingStub(channel);
  }

  @AfterEach
  void close() {
    channel.shutdownNow();
    server.shutdownNow();
    sim.close();
  }

  @Test
  void cgroupParentComesFromTheVerbosePodStatus() {
    PodSandboxConfig config =
        podConfig()
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent(CGROUP_PARENT))
            .build();
    assertEquals(CGROUP_PARENT, PodCodec.cgroupParent(verboseStatus(runPod(config))));
  }

  @Test
  void podWithoutLinuxConfigHasNoCgroupParent() {
    assertEquals("", PodCodec.cgroupParent(verboseStatus(runPod(podConfig().build()))));
  }

  private static PodSandboxConfig.Builder podConfig() {
    return PodSandboxConfig.newBuilder()
        .setMetadata(
            PodSandboxMetadata.newBuilder().setName("web").setNamespace("default").setUid("uid"));
  }

  private String runPod(PodSandboxConfig config) {
    return runtime
        .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(config).build())
        .getPodSandboxId();
  }

  private PodSandboxStatusResponse verboseStatus(String pod) {
    return runtime.podSandboxStatus(
        PodSandboxStatusRequest.newBuilder().setPodSandboxId(pod).setVerbose(true).build());
  }
}
