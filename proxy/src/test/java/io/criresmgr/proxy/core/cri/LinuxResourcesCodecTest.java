package io.criresmgr.proxy.core.cri;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.api.runtime.v1.HugepageLimit;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.cache.LinuxResources;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LinuxResourcesCodecTest {
  static final LinuxContainerResources KUBELET =
      LinuxContainerResources.newBuilder()
          .setCpuPeriod(100_000)
          .setCpuQuota(50_000)
          .setCpuShares(512)
          .setMemoryLimitInBytes(1 << 30)
          .setOomScoreAdj(-997)
          .setCpusetCpus("0-3")
          .setCpusetMems("0")
          .addHugepageLimits(HugepageLimit.newBuilder().setPageSize("2MB").setLimit(4 << 20))
          .putUnified("memory.high", "max")
          .putUnified("memory.swap.max", "0")
          .setMemorySwapLimitInBytes(2L << 30)
          .build();

  @Test
  void fromProtoReadsEveryDecidedSetting() {
    assertEquals(
        new LinuxResources(
            100_000,
            50_000,
            512,
            1 << 30,
            "0-3",
            "0",
            Map.of("memory.high", "max", "memory.swap.max", "0")),
        LinuxResourcesCodec.fromProto(KUBELET));
  }

  @Test
  void fromProtoOfNothingIsNone() {
    assertEquals(
        LinuxResources.NONE,
        LinuxResourcesCodec.fromProto(LinuxContainerResources.getDefaultInstance()));
  }

  @Test
  void applyToReplacesDecidedSettingsAndKeepsTheRest() {
    LinuxResources decided =
        new LinuxResources(200_000, -1, 2048, 2L << 30, "4,6", "1", Map.of("cpu.idle", "0"));
    LinuxContainerResources expected =
        LinuxContainerResources.newBuilder()
            .setCpuPeriod(200_000)
            .setCpuQuota(-1)
            .setCpuShares(2048)
            .setMemoryLimitInBytes(2L << 30)
            .setOomScoreAdj(-997)
            .setCpusetCpus("4,6")
            .setCpusetMems("1")
            .addHugepageLimits(HugepageLimit.newBuilder().setPageSize("2MB").setLimit(4 << 20))
            .putUnified("cpu.idle", "0")
            .setMemorySwapLimitInBytes(2L << 30)
            .build();
    assertEquals(expected, LinuxResourcesCodec.applyTo(KUBELET, decided).build());
  }

  @Test
  void applyToWritesUnsetValuesToo() {
    LinuxContainerResources expected =
        LinuxContainerResources.newBuilder()
            .setOomScoreAdj(-997)
            .addHugepageLimits(HugepageLimit.newBuilder().setPageSize("2MB").setLimit(4 << 20))
            .setMemorySwapLimitInBytes(2L << 30)
            .build();
    assertEquals(expected, LinuxResourcesCodec.applyTo(KUBELET, LinuxResources.NONE).build());
  }

  @Test
  void roundTripsThroughToProto() {
    LinuxResources value = LinuxResourcesCodec.fromProto(KUBELET);
    LinuxContainerResources proto = LinuxResourcesCodec.toProto(value);
    assertEquals(0, proto.getOomScoreAdj());
    assertEquals(0, proto.getHugepageLimitsCount());
    assertEquals(value, LinuxResourcesCodec.fromProto(proto));
  }
}
