package io.criresmgr.cache;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

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

    void write(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeNumberField("CPURequestMilli", cpuRequestMilli);
      g.writeNumberField("CPULimitMilli", cpuLimitMilli);
      g.writeNumberField("MemoryRequestBytes", memoryRequestBytes);
      g.writeNumberField("MemoryLimitBytes", memoryLimitBytes);
      g.writeEndObject();
    }

    Resources toResources() {
      return new Resources(cpuRequestMilli, cpuLimitMilli, memoryRequestBytes, memoryLimitBytes);
    }
  }

  /** {@link TopologyHint} in the file; CPU and node sets are list strings. */
  record TopologyHintJson(
      @JsonProperty("Provider") String provider,
      @JsonProperty("CPUs") CpuSet cpus,
      @JsonProperty("NUMAs") CpuSet numas) {
    static TopologyHintJson from(TopologyHint h) {
      return new TopologyHintJson(h.provider(), h.cpus(), h.numas());
    }

    void write(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeStringField("Provider", provider);
      g.writeStringField("CPUs", cpus.toString());
      g.writeStringField("NUMAs", numas.toString());
      g.writeEndObject();
    }

    TopologyHint toHint() {
      return new TopologyHint(provider, cpus, numas);
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

    void write(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeNumberField("CPUPeriod", cpuPeriod);
      g.writeNumberField("CPUQuota", cpuQuota);
      g.writeNumberField("CPUShares", cpuShares);
      g.writeNumberField("MemoryLimitInBytes", memoryLimitBytes);
      g.writeStringField("CpusetCpus", cpusetCpus);
      g.writeStringField("CpusetMems", cpusetMems);
      StreamedJson.stringMap(g, "Unified", unified);
      g.writeEndObject();
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

    void write(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeStringField("CPUs", cpus.toString());
      g.writeStringField("Mems", mems.toString());
      g.writeNumberField("CPUShares", cpuShares);
      g.writeNumberField("CPUQuota", cpuQuota);
      g.writeNumberField("CPUPeriod", cpuPeriod);
      g.writeNumberField("MemoryLimitInBytes", memoryLimitBytes);
      StreamedJson.stringMap(g, "Unified", unified);
      g.writeStringField("RDTClass", rdtClass);
      g.writeStringField("BlockIOClass", blockIoClass);
      g.writeEndObject();
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

  /** An {@link Adjustment} in the file; absent overrides are null. */
  record AdjustmentJson(
      @JsonProperty("Name") String name,
      @JsonProperty("CPU") @JsonSetter(nulls = Nulls.SET) @Nullable AmountsJson cpu,
      @JsonProperty("Memory") @JsonSetter(nulls = Nulls.SET) @Nullable AmountsJson memory,
      @JsonProperty("RDTClass") String rdtClass,
      @JsonProperty("BlockIOClass") String blockIoClass,
      @JsonProperty("ToptierLimit") @JsonSetter(nulls = Nulls.SET) @Nullable Long toptierLimit) {
    static AdjustmentJson from(Adjustment a) {
      Optional<ResourceOverride> r = a.resources();
      return new AdjustmentJson(
          a.name(),
          r.flatMap(ResourceOverride::cpu).map(AmountsJson::from).orElse(null),
          r.flatMap(ResourceOverride::memory).map(AmountsJson::from).orElse(null),
          a.rdtClass(),
          a.blockIoClass(),
          a.toptierLimitBytes().isPresent() ? a.toptierLimitBytes().getAsLong() : null);
    }

    void write(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeStringField("Name", name);
      StreamedJson.nullable(g, "CPU", cpu, (out, a) -> a.write(out));
      StreamedJson.nullable(g, "Memory", memory, (out, a) -> a.write(out));
      g.writeStringField("RDTClass", rdtClass);
      g.writeStringField("BlockIOClass", blockIoClass);
      StreamedJson.nullable(
          g, "ToptierLimit", toptierLimit, (out, bytes) -> out.writeNumber(bytes.longValue()));
      g.writeEndObject();
    }

    Adjustment toAdjustment() {
      Optional<ResourceOverride.Amounts> c = Optional.ofNullable(cpu).map(AmountsJson::toAmounts);
      Optional<ResourceOverride.Amounts> m =
          Optional.ofNullable(memory).map(AmountsJson::toAmounts);
      return new Adjustment(
          name,
          c.isEmpty() && m.isEmpty() ? Optional.empty() : Optional.of(new ResourceOverride(c, m)),
          rdtClass,
          blockIoClass,
          toptierLimit == null ? OptionalLong.empty() : OptionalLong.of(toptierLimit));
    }
  }

  /** {@link ResourceOverride.Amounts} in the file. */
  record AmountsJson(@JsonProperty("Request") long request, @JsonProperty("Limit") long limit) {
    static AmountsJson from(ResourceOverride.Amounts a) {
      return new AmountsJson(a.request(), a.limit());
    }

    void write(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeNumberField("Request", request);
      g.writeNumberField("Limit", limit);
      g.writeEndObject();
    }

    ResourceOverride.Amounts toAmounts() {
      return new ResourceOverride.Amounts(request, limit);
    }
  }

  /** {@link StoredAdjustments} in the file. */
  record StoredAdjustmentsJson(
      @JsonProperty("NodeName") String nodeName, @JsonProperty("JSON") String json) {
    static StoredAdjustmentsJson from(StoredAdjustments s) {
      return new StoredAdjustmentsJson(s.nodeName(), s.json());
    }

    void write(JsonGenerator g) throws IOException {
      g.writeStartObject();
      g.writeStringField("NodeName", nodeName);
      g.writeStringField("JSON", json);
      g.writeEndObject();
    }

    StoredAdjustments toStored() {
      return new StoredAdjustments(nodeName, json);
    }
  }
}
