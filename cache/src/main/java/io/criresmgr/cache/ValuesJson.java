package io.criresmgr.cache;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/** The cache file's layout of the small values inside pods and containers. */
final class ValuesJson {
  private ValuesJson() {}

  /** {@link io.criresmgr.cache.Resources} in the file. */
  record ResourcesJson(
      @JsonProperty("CPURequestMilli") long cpuRequestMilli,
      @JsonProperty("CPULimitMilli") long cpuLimitMilli,
      @JsonProperty("MemoryRequestBytes") long memoryRequestBytes,
      @JsonProperty("MemoryLimitBytes") long memoryLimitBytes) {
    static ResourcesJson from(Resources r) {
      return new ResourcesJson(
          r.cpuRequestMilli(), r.cpuLimitMilli(), r.memoryRequestBytes(), r.memoryLimitBytes());
    }

    Resources toResources() {
      return new Resources(cpuRequestMilli, cpuLimitMilli, memoryRequestBytes, memoryLimitBytes);
    }
  }

  /** {@link LinuxResources} in the file, named like cri-resmgr's {@code LinuxReq}. */
  record LinuxReqJson(
      @JsonProperty("CPUPeriod") long cpuPeriod,
      @JsonProperty("CPUQuota") long cpuQuota,
      @JsonProperty("CPUShares") long cpuShares,
      @JsonProperty("MemoryLimitInBytes") long memoryLimitBytes,
      @JsonProperty("CpusetCpus") String cpusetCpus,
      @JsonProperty("CpusetMems") String cpusetMems,
      @JsonProperty("Unified") Map<String, String> unified) {
    static LinuxReqJson from(LinuxResources r) {
      return new LinuxReqJson(
          r.cpuPeriod(),
          r.cpuQuota(),
          r.cpuShares(),
          r.memoryLimitBytes(),
          r.cpusetCpus(),
          r.cpusetMems(),
          r.unified());
    }

    LinuxResources toLinuxResources() {
      return new LinuxResources(
          cpuPeriod, cpuQuota, cpuShares, memoryLimitBytes, cpusetCpus, cpusetMems, unified);
    }
  }

  /** {@link Assignment} in the file; CPU sets are list strings such as {@code "0-3,8"}. */
  record AssignmentJson(
      @JsonProperty("CPUs") CpuSet cpus,
      @JsonProperty("Mems") CpuSet mems,
      @JsonProperty("CPUShares") long cpuShares,
      @JsonProperty("CPUQuota") long cpuQuota,
      @JsonProperty("CPUPeriod") long cpuPeriod,
      @JsonProperty("MemoryLimitInBytes") long memoryLimitBytes,
      @JsonProperty("Unified") Map<String, String> unified,
      @JsonProperty("RDTClass") String rdtClass,
      @JsonProperty("BlockIOClass") String blockIoClass) {
    static AssignmentJson from(Assignment a) {
      return new AssignmentJson(
          a.cpus(),
          a.mems(),
          a.cpuShares(),
          a.cpuQuota(),
          a.cpuPeriod(),
          a.memoryLimitBytes(),
          a.unified(),
          a.rdtClass(),
          a.blockIoClass());
    }

    Assignment toAssignment() {
      return new Assignment(
          cpus,
          mems,
          cpuShares,
          cpuQuota,
          cpuPeriod,
          memoryLimitBytes,
          unified,
          rdtClass,
          blockIoClass);
    }
  }
}
