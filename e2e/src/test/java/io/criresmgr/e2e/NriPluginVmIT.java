package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.LinuxSandboxSecurityContext;
import io.criresmgr.api.runtime.v1.NamespaceMode;
import io.criresmgr.api.runtime.v1.NamespaceOption;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.nri.NriHandler;
import io.criresmgr.nri.NriPlugin;
import io.criresmgr.nri.NriPluginOptions;
import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.ContainerAdjustment;
import io.criresmgr.nri.api.ContainerUpdate;
import io.criresmgr.nri.api.CreateContainerResponse;
import io.criresmgr.nri.api.LinuxCPU;
import io.criresmgr.nri.api.LinuxContainerAdjustment;
import io.criresmgr.nri.api.LinuxResources;
import io.criresmgr.nri.api.PodSandbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Module nri's plugin against the real containerd 1.7.24 with NRI (the VM bed, docs/nri.md): it
 * registers, is configured with the runtime's name and version, adjusts a container created through
 * containerd's CRI (the cgroup holds the plugin's cpuset), and a second plugin's synchronize lists
 * the running pod and container.
 */
@Tag("e2e")
@ExtendWith(VmBed.Extension.class)
class NriPluginVmIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String CGROUP_PARENT = "/nri-vm/kubepods/besteffort/podnrivm";
  private static @Nullable VmBed bed;

  @BeforeAll
  static void vm(VmBed vm) {
    bed = vm;
  }

  /** Records what containerd sends; puts every new container on CPU 1 and memory node 0. */
  private static final class Recorder implements NriHandler {
    final BlockingQueue<String> seen = new LinkedBlockingQueue<>();

    @Override
    public void configure(String config, String runtimeName, String runtimeVersion) {
      seen.add("configure " + runtimeName + " " + runtimeVersion);
    }

    @Override
    public List<ContainerUpdate> synchronize(List<PodSandbox> pods, List<Container> containers) {
      pods.forEach(p -> seen.add("synchronized pod " + p.getName()));
      containers.forEach(c -> seen.add("synchronized container " + c.getName()));
      seen.add("synchronize done");
      return List.of();
    }

    @Override
    public CreateContainerResponse createContainer(PodSandbox pod, Container container) {
      seen.add("create " + pod.getName() + "/" + container.getName());
      LinuxResources cpu =
          LinuxResources.newBuilder()
              .setCpu(LinuxCPU.newBuilder().setCpus("1").setMems("0"))
              .build();
      return CreateContainerResponse.newBuilder()
          .setAdjust(
              ContainerAdjustment.newBuilder()
                  .setLinux(LinuxContainerAdjustment.newBuilder().setResources(cpu)))
          .build();
    }

    String next() throws InterruptedException {
      String s = seen.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
      return s == null ? "<nothing within " + WAIT + ">" : s;
    }
  }

  @Test
  void registersSynchronizesAndAdjustsAgainstContainerd() throws Exception {
    VmBed vm = java.util.Objects.requireNonNull(bed);
    Path socket = vm.forwardNriSocket("nri-host");
    Recorder placer = new Recorder();
    try (NriPlugin plugin = NriPlugin.connect(options("placer", "10", socket), placer);
        CriClient cri = new CriClient(vm.criSocket())) {
      assertTrue(placer.next().startsWith("configure containerd 1.7.24"), "configured");
      assertEquals("synchronize done", placer.next());

      PodSandboxConfig pod = pod();
      String podId =
          cri.runtime()
              .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(pod).build())
              .getPodSandboxId();
      try {
        String id = createAndStart(cri, podId, pod);
        assertEquals("create nri-vm/sleeper", placer.next());
        String dir = "/sys/fs/cgroup" + CGROUP_PARENT + "/" + id;
        assertEquals("1", vm.shell().check("cat " + dir + "/cpuset.cpus").trim());
        assertEquals("0", vm.shell().check("cat " + dir + "/cpuset.mems").trim());

        Recorder observer = new Recorder();
        try (NriPlugin second = NriPlugin.connect(options("observer", "20", socket), observer)) {
          assertTrue(observer.next().startsWith("configure containerd"), "configured");
          assertEquals("synchronized pod nri-vm", observer.next());
          assertEquals("synchronized container sleeper", observer.next());
          assertEquals("synchronize done", observer.next());
          assertTrue(!second.closed().isDone(), "the second plugin is connected");
        }
        assertTrue(!plugin.closed().isDone(), "the first plugin stays connected");
      } finally {
        cri.runtime()
            .stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(podId).build());
        cri.runtime()
            .removePodSandbox(RemovePodSandboxRequest.newBuilder().setPodSandboxId(podId).build());
      }
    }
  }

  private static NriPluginOptions options(String name, String index, Path socket) {
    return new NriPluginOptions(
        socket, name, index, Duration.ofSeconds(30), Duration.ofSeconds(30));
  }

  private static PodSandboxConfig pod() {
    NamespaceOption hostNetwork =
        NamespaceOption.newBuilder().setNetwork(NamespaceMode.NODE).build();
    return PodSandboxConfig.newBuilder()
        .setMetadata(
            PodSandboxMetadata.newBuilder().setName("nri-vm").setNamespace("e2e").setUid("nri-vm"))
        .setLogDirectory("/tmp")
        .setLinux(
            LinuxPodSandboxConfig.newBuilder()
                .setCgroupParent(CGROUP_PARENT)
                .setSecurityContext(
                    LinuxSandboxSecurityContext.newBuilder().setNamespaceOptions(hostNetwork)))
        .build();
  }

  private static String createAndStart(CriClient cri, String podId, PodSandboxConfig pod) {
    ContainerConfig config =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName("sleeper"))
            .setImage(ImageSpec.newBuilder().setImage("localhost/e2e/busybox:1"))
            .addCommand("sleep")
            .addCommand("3600")
            .setLinux(
                LinuxContainerConfig.newBuilder()
                    .setResources(LinuxContainerResources.newBuilder().setCpusetCpus("0-1")))
            .build();
    String id =
        cri.runtime()
            .createContainer(
                CreateContainerRequest.newBuilder()
                    .setPodSandboxId(podId)
                    .setConfig(config)
                    .setSandboxConfig(pod)
                    .build())
            .getContainerId();
    cri.runtime().startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    return id;
  }
}
