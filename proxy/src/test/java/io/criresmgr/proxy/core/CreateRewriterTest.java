package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.HugepageLimit;
import io.criresmgr.api.runtime.v1.KeyValue;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.proxy.core.cri.RequestedAnnotation;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CreateRewriterTest {
  private static final CreateContainerRequest REQUEST =
      CreateContainerRequest.newBuilder()
          .setPodSandboxId("pod")
          .setConfig(
              ContainerConfig.newBuilder()
                  .putAnnotations("a", "1")
                  .addEnvs(KeyValue.newBuilder().setKey("PATH").setValue("/bin"))
                  .setLinux(
                      LinuxContainerConfig.newBuilder()
                          .setResources(
                              LinuxContainerResources.newBuilder()
                                  .setCpuShares(1024)
                                  .setCpusetCpus("0-7")
                                  .setOomScoreAdj(-997)
                                  .addHugepageLimits(
                                      HugepageLimit.newBuilder().setPageSize("2MB").setLimit(4)))))
          .build();

  @Test
  void withoutEditsTheRequestIsUntouched() {
    assertSame(REQUEST, CreateRewriter.rewrite(REQUEST, new ContainerEdits()));
  }

  @Test
  void recordsTheRequestedResourcesInTheAnnotationReplacingAnyValueSent() {
    CreateContainerRequest sent =
        REQUEST.toBuilder()
            .setConfig(
                REQUEST.getConfig().toBuilder().putAnnotations(RequestedAnnotation.KEY, "forged"))
            .build();
    LinuxResources requested =
        new LinuxResources(100_000, 200_000, 2048, 1L << 28, "", "", Map.of());

    CreateContainerRequest recorded = CreateRewriter.record(sent, requested);

    assertEquals(
        Map.of(
            "a",
            "1",
            RequestedAnnotation.KEY,
            "{\"v\":1,\"shares\":2048,\"quota\":200000,\"period\":100000,\"memory\":268435456}"),
        recorded.getConfig().getAnnotationsMap());
    assertEquals(
        REQUEST.getConfig().toBuilder().clearAnnotations().build(),
        recorded.getConfig().toBuilder().clearAnnotations().build(),
        "nothing but the annotation changes");
  }

  @Test
  void writesResourcesAnnotationsAndEnvKeepingTheRest() {
    ContainerEdits edits = new ContainerEdits();
    edits.setLinuxResources(
        new LinuxResources(
            100000, 200000, 2048, 1 << 30, "2-3", "0", Map.of("memory.high", "max")));
    edits.putAnnotation("b", "2");
    edits.putEnv("X", "y");
    ContainerConfig config = CreateRewriter.rewrite(REQUEST, edits).getConfig();
    LinuxContainerResources r = config.getLinux().getResources();
    assertEquals("2-3", r.getCpusetCpus());
    assertEquals("0", r.getCpusetMems());
    assertEquals(2048, r.getCpuShares());
    assertEquals(200000, r.getCpuQuota());
    assertEquals(100000, r.getCpuPeriod());
    assertEquals(1 << 30, r.getMemoryLimitInBytes());
    assertEquals(Map.of("memory.high", "max"), r.getUnifiedMap());
    assertEquals(-997, r.getOomScoreAdj());
    assertEquals(1, r.getHugepageLimitsCount());
    assertEquals(Map.of("a", "1", "b", "2"), config.getAnnotationsMap());
    assertEquals(2, config.getEnvsCount());
    assertEquals("X", config.getEnvs(1).getKey());
  }

  @Test
  void claimedUnifiedFilesGoOnTopOfTheResources() {
    ContainerEdits edits = new ContainerEdits();
    edits.claimUnified("memory-qos", "memory.high", "50000000");
    LinuxContainerResources alone =
        CreateRewriter.rewrite(REQUEST, edits).getConfig().getLinux().getResources();
    assertEquals(Map.of("memory.high", "50000000"), alone.getUnifiedMap());
    assertEquals("0-7", alone.getCpusetCpus(), "kubelet's request is kept without a decision");
    edits.setLinuxResources(
        new LinuxResources(
            0, 0, 0, 0, "1", "", Map.of("memory.high", "max", "memory.min", "1000")));
    LinuxContainerResources both =
        CreateRewriter.rewrite(REQUEST, edits).getConfig().getLinux().getResources();
    assertEquals(Map.of("memory.high", "50000000", "memory.min", "1000"), both.getUnifiedMap());
    assertEquals("1", both.getCpusetCpus());
  }
}
