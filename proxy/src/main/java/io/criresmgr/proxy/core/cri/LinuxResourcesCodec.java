package io.criresmgr.proxy.core.cri;

import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.cache.LinuxResources;

/** Converts CRI {@code LinuxContainerResources} to and from the cache's {@link LinuxResources}. */
public final class LinuxResourcesCodec {
  private LinuxResourcesCodec() {}

  /** The settings the resource manager reads; the others (hugepages, swap, OOM score) are not. */
  public static LinuxResources fromProto(LinuxContainerResources resources) {
    return new LinuxResources(
        resources.getCpuPeriod(),
        resources.getCpuQuota(),
        resources.getCpuShares(),
        resources.getMemoryLimitInBytes(),
        resources.getCpusetCpus(),
        resources.getCpusetMems(),
        resources.getUnifiedMap());
  }

  /**
   * A copy of {@code original} with every setting the resource manager decides replaced by {@code
   * decided}: CPU period, quota and shares, memory limit, cpuset CPUs and memory nodes, and the
   * unified map as a whole. Hugepage limits, OOM score adjustment and swap limit are kept, since
   * kubelet set them and no decision covers them.
   */
  public static LinuxContainerResources.Builder applyTo(
      LinuxContainerResources original, LinuxResources decided) {
    return set(original.toBuilder(), decided);
  }

  /** Sets {@code decided} in {@code builder}, whose other fields stay; returns {@code builder}. */
  public static LinuxContainerResources.Builder set(
      LinuxContainerResources.Builder builder, LinuxResources decided) {
    builder
        .setCpuPeriod(decided.cpuPeriod())
        .setCpuQuota(decided.cpuQuota())
        .setCpuShares(decided.cpuShares())
        .setMemoryLimitInBytes(decided.memoryLimitBytes())
        .setCpusetCpus(decided.cpusetCpus())
        .setCpusetMems(decided.cpusetMems());
    // The unified map replaced as a whole; an empty one is left untouched, since clearing or
    // filling it makes the builder's mutable map (per re-assigned container's update).
    if (builder.getUnifiedCount() > 0) {
      builder.clearUnified();
    }
    if (!decided.unified().isEmpty()) {
      builder.putAllUnified(decided.unified());
    }
    return builder;
  }

  /** The CRI message for {@code resources} alone (everything else unset). */
  public static LinuxContainerResources toProto(LinuxResources resources) {
    return applyTo(LinuxContainerResources.getDefaultInstance(), resources).build();
  }
}
