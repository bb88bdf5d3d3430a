package io.criresmgr.e2e;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.LinuxSandboxSecurityContext;
import io.criresmgr.api.runtime.v1.NamespaceMode;
import io.criresmgr.api.runtime.v1.NamespaceOption;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The pod and container one workflow run creates: a host-network pod with its own cgroup parent and
 * a busybox container pinned to CPU 0 that says {@value #HELLO} and then sleeps.
 *
 * @param name unique per run; names the pod and its cgroup parent
 * @param logDir the pod's log directory
 * @param namespace the pod's Kubernetes namespace
 * @param cgroupParent the pod's cgroup parent, below which runc puts its containers
 */
record WorkflowSpec(String name, Path logDir, String namespace, String cgroupParent) {
  /** The image the bed imports. */
  static final String BUSYBOX = "localhost/e2e/busybox:1";

  /** What the container prints first. */
  static final String HELLO = "hello-e2e";

  /** The container's log file, relative to {@link #logDir}. */
  static final String LOG_PATH = "busybox.log";

  static final long MEMORY_LIMIT = 256L << 20;
  static final long CPU_SHARES = 512;

  /** The namespace of e2e pods unless a test needs another. */
  static final String NAMESPACE = "cri-resmgr-e2e";

  WorkflowSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(logDir, "logDir");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(cgroupParent, "cgroupParent");
  }

  /** A spec in namespace {@value #NAMESPACE} with cgroup parent {@code /<name>}. */
  WorkflowSpec(String name, Path logDir) {
    this(name, logDir, NAMESPACE, "/" + name);
  }

  /**
   * A Guaranteed pod as kubelet would run it with {@code --cgroup-root /<name>}: cgroup parent
   * {@code /<name>/kubepods/pod<name>}, which cri-resmgr reads as QoS class Guaranteed.
   */
  static WorkflowSpec guaranteed(String name, Path logDir, String namespace) {
    return new WorkflowSpec(name, logDir, namespace, "/" + name + "/kubepods/pod" + name);
  }

  /** Host network and no hostname: a private UTS namespace would be needed for one. */
  PodSandboxConfig pod() {
    var network = NamespaceOption.newBuilder().setNetwork(NamespaceMode.NODE);
    var security = LinuxSandboxSecurityContext.newBuilder().setNamespaceOptions(network);
    return PodSandboxConfig.newBuilder()
        .setMetadata(
            PodSandboxMetadata.newBuilder()
                .setName(name)
                .setNamespace(namespace)
                .setUid(name + "-uid"))
        .setLogDirectory(logDir.toString())
        .setLinux(
            LinuxPodSandboxConfig.newBuilder()
                .setCgroupParent(cgroupParent())
                .setSecurityContext(security))
        .build();
  }

  /** Exits 0 on SIGTERM (a shell as PID 1 would otherwise ignore it). */
  ContainerConfig container() {
    String script = "trap 'exit 0' TERM; echo " + HELLO + "; sleep 600 & wait";
    return ContainerConfig.newBuilder()
        .setMetadata(ContainerMetadata.newBuilder().setName("busybox"))
        .setImage(ImageSpec.newBuilder().setImage(BUSYBOX))
        .addCommand("sh")
        .addArgs("-c")
        .addArgs(script)
        .setLogPath(LOG_PATH)
        .setLinux(LinuxContainerConfig.newBuilder().setResources(resources("0")))
        .build();
  }

  /** The container's resources with the given cpuset. */
  static LinuxContainerResources resources(String cpus) {
    return LinuxContainerResources.newBuilder()
        .setCpusetCpus(cpus)
        .setCpuShares(CPU_SHARES)
        .setMemoryLimitInBytes(MEMORY_LIMIT)
        .build();
  }
}
