package io.criresmgr.proxy.nri;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.KeyValue;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.nri.api.ContainerAdjustment;
import io.criresmgr.nri.api.ContainerUpdate;
import io.criresmgr.nri.api.LinuxResources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CriToNriTest {
  private static CreateContainerRequest request(
      LinuxContainerResources linux, Map<String, String> annotations) {
    return CreateContainerRequest.newBuilder()
        .setConfig(
            ContainerConfig.newBuilder()
                .putAllAnnotations(annotations)
                .addEnvs(KeyValue.newBuilder().setKey("A").setValue("1"))
                .setLinux(LinuxContainerConfig.newBuilder().setResources(linux)))
        .build();
  }

  @Test
  void theAdjustmentHoldsOnlyWhatTheRewriteChanged() {
    LinuxContainerResources asked =
        LinuxContainerResources.newBuilder()
            .setCpuShares(1024)
            .setCpuQuota(100000)
            .setCpuPeriod(100000)
            .setMemoryLimitInBytes(1 << 30)
            .putUnified("memory.high", "max")
            .build();
    CreateContainerRequest original = request(asked, Map.of("kept", "x"));
    LinuxContainerResources decided =
        asked.toBuilder()
            .setCpusetCpus("2")
            .setCpusetMems("0")
            .setCpuQuota(0)
            .putUnified("memory.high", "900M")
            .build();
    CreateContainerRequest rewritten =
        request(decided, Map.of("kept", "x", "added", "y")).toBuilder()
            .setConfig(
                request(decided, Map.of("kept", "x", "added", "y")).getConfig().toBuilder()
                    .addEnvs(KeyValue.newBuilder().setKey("B").setValue("2"))
                    .addMounts(Mount.newBuilder().setContainerPath("/x").setHostPath("/h/x")))
            .build();

    ContainerAdjustment a = CriToNri.adjustment(original, rewritten);

    assertEquals(Map.of("added", "y"), a.getAnnotationsMap());
    assertEquals(1, a.getEnvCount());
    assertEquals("B", a.getEnv(0).getKey());
    assertEquals("/x", a.getMounts(0).getDestination());
    assertEquals(List.of("rbind", "rw"), a.getMounts(0).getOptionsList());
    LinuxResources r = a.getLinux().getResources();
    assertEquals("2", r.getCpu().getCpus());
    assertEquals("0", r.getCpu().getMems());
    assertFalse(r.getCpu().hasShares(), "unchanged");
    assertFalse(r.getCpu().hasQuota(), "a CRI zero cannot be expressed in NRI");
    assertFalse(r.hasMemory(), "unchanged");
    assertEquals(Map.of("memory.high", "900M"), r.getUnifiedMap());
  }

  @Test
  void anUnchangedRequestNeedsNoAdjustment() {
    CreateContainerRequest same =
        request(LinuxContainerResources.newBuilder().setCpuShares(2).build(), Map.of());
    assertEquals(ContainerAdjustment.getDefaultInstance(), CriToNri.adjustment(same, same));
  }

  @Test
  void classesGoIntoTheAdjustmentsResourcesAndEmptyOnesStayOut() {
    CreateContainerRequest same =
        request(LinuxContainerResources.newBuilder().setCpuShares(2).build(), Map.of());

    LinuxResources both =
        CriToNri.adjustment(same, same, "gold", "LowPrio").getLinux().getResources();
    assertEquals("gold", both.getRdtClass().getValue());
    assertEquals("LowPrio", both.getBlockioClass().getValue());
    assertFalse(both.hasCpu(), "unchanged");

    LinuxResources rdtOnly = CriToNri.adjustment(same, same, "gold", "").getLinux().getResources();
    assertEquals("gold", rdtOnly.getRdtClass().getValue());
    assertFalse(rdtOnly.hasBlockioClass(), "an empty class would clear the runtime's");

    LinuxResources blockIoOnly =
        CriToNri.adjustment(same, same, "", "LowPrio").getLinux().getResources();
    assertFalse(blockIoOnly.hasRdtClass(), "an empty class would clear the runtime's");
    assertEquals("LowPrio", blockIoOnly.getBlockioClass().getValue());

    assertEquals(ContainerAdjustment.getDefaultInstance(), CriToNri.adjustment(same, same, "", ""));
  }

  @Test
  void anUpdateCarriesTheSetValues() {
    ContainerUpdate u =
        CriToNri.update(
            "c1",
            LinuxContainerResources.newBuilder()
                .setCpusetCpus("0-1")
                .setCpuShares(512)
                .setMemoryLimitInBytes(4096)
                .build());
    assertEquals("c1", u.getContainerId());
    LinuxResources r = u.getLinux().getResources();
    assertEquals("0-1", r.getCpu().getCpus());
    assertEquals(512, r.getCpu().getShares().getValue());
    assertEquals(4096, r.getMemory().getLimit().getValue());
    assertFalse(r.getCpu().hasPeriod());
  }
}
