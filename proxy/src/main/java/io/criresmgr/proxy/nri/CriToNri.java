package io.criresmgr.proxy.nri;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.nri.api.ContainerAdjustment;
import io.criresmgr.nri.api.ContainerUpdate;
import io.criresmgr.nri.api.KeyValue;
import io.criresmgr.nri.api.LinuxCPU;
import io.criresmgr.nri.api.LinuxContainerAdjustment;
import io.criresmgr.nri.api.LinuxContainerUpdate;
import io.criresmgr.nri.api.LinuxMemory;
import io.criresmgr.nri.api.LinuxResources;
import io.criresmgr.nri.api.Mount;
import io.criresmgr.nri.api.OptionalInt64;
import io.criresmgr.nri.api.OptionalString;
import io.criresmgr.nri.api.OptionalUInt64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the pipeline sent its runtime, as NRI's answers: a rewritten CreateContainer becomes the
 * container's adjustment (only what the rewrite changed), an UpdateContainerResources becomes a
 * container update. CRI's zero values mean "not set" and are left out: NRI cannot unset a value.
 */
final class CriToNri {
  private CriToNri() {}

  /** The adjustment that turns {@code original} into {@code rewritten}. */
  static ContainerAdjustment adjustment(
      CreateContainerRequest original, CreateContainerRequest rewritten) {
    return adjustment(original, rewritten, "", "");
  }

  /**
   * The adjustment that turns {@code original} into {@code rewritten} and gives the container RDT
   * class {@code rdtClass} and block I/O class {@code blockIoClass} (each left out when empty: an
   * empty NRI class would clear what the runtime set).
   */
  static ContainerAdjustment adjustment(
      CreateContainerRequest original,
      CreateContainerRequest rewritten,
      String rdtClass,
      String blockIoClass) {
    ContainerConfig was = original.getConfig();
    ContainerConfig now = rewritten.getConfig();
    ContainerAdjustment.Builder adjust = ContainerAdjustment.newBuilder();
    changed(was.getAnnotationsMap(), now.getAnnotationsMap()).forEach(adjust::putAnnotations);
    Map<String, String> env = new HashMap<>();
    was.getEnvsList().forEach(kv -> env.put(kv.getKey(), kv.getValue()));
    for (var kv : now.getEnvsList()) {
      if (!Objects.equals(env.get(kv.getKey()), kv.getValue())) {
        adjust.addEnv(KeyValue.newBuilder().setKey(kv.getKey()).setValue(kv.getValue()));
      }
    }
    Set<io.criresmgr.api.runtime.v1.Mount> mounts = new HashSet<>(was.getMountsList());
    for (var m : now.getMountsList()) {
      if (!mounts.contains(m)) {
        adjust.addMounts(
            Mount.newBuilder()
                .setDestination(m.getContainerPath())
                .setSource(m.getHostPath())
                .setType("bind")
                .addOptions("rbind")
                .addOptions(m.getReadonly() ? "ro" : "rw"));
      }
    }
    LinuxResources resources =
        withClasses(
            changed(was.getLinux().getResources(), now.getLinux().getResources()),
            rdtClass,
            blockIoClass);
    if (!resources.equals(LinuxResources.getDefaultInstance())) {
      adjust.setLinux(LinuxContainerAdjustment.newBuilder().setResources(resources));
    }
    return adjust.build();
  }

  private static LinuxResources withClasses(
      LinuxResources resources, String rdtClass, String blockIoClass) {
    if (rdtClass.isEmpty() && blockIoClass.isEmpty()) {
      return resources;
    }
    LinuxResources.Builder r = resources.toBuilder();
    if (!rdtClass.isEmpty()) {
      r.setRdtClass(OptionalString.newBuilder().setValue(rdtClass));
    }
    if (!blockIoClass.isEmpty()) {
      r.setBlockioClass(OptionalString.newBuilder().setValue(blockIoClass));
    }
    return r.build();
  }

  /** An update of container {@code id} to the resources of {@code linux}. */
  static ContainerUpdate update(String id, LinuxContainerResources linux) {
    return ContainerUpdate.newBuilder()
        .setContainerId(id)
        .setLinux(
            LinuxContainerUpdate.newBuilder()
                .setResources(changed(LinuxContainerResources.getDefaultInstance(), linux)))
        .build();
  }

  /** The settings of {@code now} that differ from {@code was} and are set. */
  static LinuxResources changed(LinuxContainerResources was, LinuxContainerResources now) {
    LinuxCPU.Builder cpu = LinuxCPU.newBuilder();
    if (now.getCpuShares() != was.getCpuShares() && now.getCpuShares() != 0) {
      cpu.setShares(OptionalUInt64.newBuilder().setValue(now.getCpuShares()));
    }
    if (now.getCpuQuota() != was.getCpuQuota() && now.getCpuQuota() != 0) {
      cpu.setQuota(OptionalInt64.newBuilder().setValue(now.getCpuQuota()));
    }
    if (now.getCpuPeriod() != was.getCpuPeriod() && now.getCpuPeriod() != 0) {
      cpu.setPeriod(OptionalUInt64.newBuilder().setValue(now.getCpuPeriod()));
    }
    if (!now.getCpusetCpus().equals(was.getCpusetCpus())) {
      cpu.setCpus(now.getCpusetCpus());
    }
    if (!now.getCpusetMems().equals(was.getCpusetMems())) {
      cpu.setMems(now.getCpusetMems());
    }
    LinuxResources.Builder r = LinuxResources.newBuilder();
    if (!cpu.build().equals(LinuxCPU.getDefaultInstance())) {
      r.setCpu(cpu);
    }
    long limit = now.getMemoryLimitInBytes();
    if (limit != was.getMemoryLimitInBytes() && limit != 0) {
      r.setMemory(LinuxMemory.newBuilder().setLimit(OptionalInt64.newBuilder().setValue(limit)));
    }
    changed(was.getUnifiedMap(), now.getUnifiedMap()).forEach(r::putUnified);
    return r.build();
  }

  private static Map<String, String> changed(Map<String, String> was, Map<String, String> now) {
    Map<String, String> out = new HashMap<>();
    now.forEach(
        (k, v) -> {
          if (!v.equals(was.get(k))) {
            out.put(k, v);
          }
        });
    return out;
  }
}
