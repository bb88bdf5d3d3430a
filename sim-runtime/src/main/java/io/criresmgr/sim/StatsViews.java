package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.ContainerAttributes;
import io.criresmgr.api.runtime.v1.ContainerStats;
import io.criresmgr.api.runtime.v1.CpuUsage;
import io.criresmgr.api.runtime.v1.FilesystemIdentifier;
import io.criresmgr.api.runtime.v1.FilesystemUsage;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxStats;
import io.criresmgr.api.runtime.v1.MemoryUsage;
import io.criresmgr.api.runtime.v1.NetworkInterfaceUsage;
import io.criresmgr.api.runtime.v1.NetworkUsage;
import io.criresmgr.api.runtime.v1.PodSandboxAttributes;
import io.criresmgr.api.runtime.v1.PodSandboxStats;
import io.criresmgr.api.runtime.v1.ProcessUsage;
import io.criresmgr.api.runtime.v1.UInt64Value;
import java.util.List;

/**
 * Usage statistics: well-formed (timestamps set, every value present) but all zero, since nothing
 * runs.
 */
final class StatsViews {
  /** The mount point reported for the image and container filesystems. */
  static final String SNAPSHOTTER_ROOT =
      "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs";

  private static final UInt64Value ZERO = UInt64Value.getDefaultInstance();

  private StatsViews() {}

  static ContainerStats container(SimContainer c, long now) {
    return ContainerStats.newBuilder()
        .setAttributes(
            ContainerAttributes.newBuilder()
                .setId(c.id())
                .setMetadata(c.config().getMetadata())
                .putAllLabels(c.config().getLabelsMap())
                .putAllAnnotations(c.config().getAnnotationsMap()))
        .setCpu(cpu(now))
        .setMemory(memory(now))
        .setWritableLayer(filesystem(now, 0, 0))
        .build();
  }

  static PodSandboxStats pod(SimPod pod, List<SimContainer> containers, long now) {
    LinuxPodSandboxStats.Builder linux =
        LinuxPodSandboxStats.newBuilder()
            .setCpu(cpu(now))
            .setMemory(memory(now))
            .setNetwork(
                NetworkUsage.newBuilder()
                    .setTimestamp(now)
                    .setDefaultInterface(
                        NetworkInterfaceUsage.newBuilder()
                            .setName("eth0")
                            .setRxBytes(ZERO)
                            .setRxErrors(ZERO)
                            .setTxBytes(ZERO)
                            .setTxErrors(ZERO)))
            .setProcess(ProcessUsage.newBuilder().setTimestamp(now).setProcessCount(ZERO));
    containers.forEach(c -> linux.addContainers(container(c, now)));
    return PodSandboxStats.newBuilder()
        .setAttributes(
            PodSandboxAttributes.newBuilder()
                .setId(pod.id())
                .setMetadata(pod.config().getMetadata())
                .putAllLabels(pod.config().getLabelsMap())
                .putAllAnnotations(pod.config().getAnnotationsMap()))
        .setLinux(linux)
        .build();
  }

  static FilesystemUsage filesystem(long now, long usedBytes, long inodesUsed) {
    return FilesystemUsage.newBuilder()
        .setTimestamp(now)
        .setFsId(FilesystemIdentifier.newBuilder().setMountpoint(SNAPSHOTTER_ROOT))
        .setUsedBytes(UInt64Value.newBuilder().setValue(usedBytes))
        .setInodesUsed(UInt64Value.newBuilder().setValue(inodesUsed))
        .build();
  }

  private static CpuUsage cpu(long now) {
    return CpuUsage.newBuilder()
        .setTimestamp(now)
        .setUsageCoreNanoSeconds(ZERO)
        .setUsageNanoCores(ZERO)
        .build();
  }

  private static MemoryUsage memory(long now) {
    return MemoryUsage.newBuilder()
        .setTimestamp(now)
        .setWorkingSetBytes(ZERO)
        .setAvailableBytes(ZERO)
        .setUsageBytes(ZERO)
        .setRssBytes(ZERO)
        .setPageFaults(ZERO)
        .setMajorPageFaults(ZERO)
        .build();
  }
}
