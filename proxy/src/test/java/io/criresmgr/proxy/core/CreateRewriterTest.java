package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.HugepageLimit;
import io.criresmgr.api.runtime.v1.KeyValue;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.proxy.core.cri.LinuxResourcesCodec;
import io.criresmgr.proxy.core.cri.RequestedAnnotation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  private static final String NONE_RECORDED = "{\"v\":1}";

  /** {@link #REQUEST} with {@code edits}, nothing requested, no mount. */
  private static CreateContainerRequest rewrite(ContainerEdits edits) {
    return CreateRewriter.rewrite(REQUEST, edits, LinuxResources.NONE, Optional.empty());
  }

  @Test
  void withoutEditsOnlyTheAnnotationIsAdded() {
    CreateContainerRequest rewritten = rewrite(new ContainerEdits());
    assertEquals(
        REQUEST.toBuilder()
            .setConfig(
                REQUEST.getConfig().toBuilder()
                    .putAnnotations(RequestedAnnotation.KEY, NONE_RECORDED))
            .build(),
        rewritten);
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

    CreateContainerRequest recorded =
        CreateRewriter.rewrite(sent, new ContainerEdits(), requested, Optional.empty());

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
    ContainerConfig config = rewrite(edits).getConfig();
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
    assertEquals(
        Map.of("a", "1", "b", "2", RequestedAnnotation.KEY, NONE_RECORDED),
        config.getAnnotationsMap());
    assertEquals(2, config.getEnvsCount());
    assertEquals("X", config.getEnvs(1).getKey());
  }

  @Test
  void claimedUnifiedFilesGoOnTopOfTheResources() {
    ContainerEdits edits = new ContainerEdits();
    edits.claimUnified("memory-qos", "memory.high", "50000000");
    LinuxContainerResources alone = rewrite(edits).getConfig().getLinux().getResources();
    assertEquals(Map.of("memory.high", "50000000"), alone.getUnifiedMap());
    assertEquals("0-7", alone.getCpusetCpus(), "kubelet's request is kept without a decision");
    edits.setLinuxResources(
        new LinuxResources(
            0, 0, 0, 0, "1", "", Map.of("memory.high", "max", "memory.min", "1000")));
    LinuxContainerResources both = rewrite(edits).getConfig().getLinux().getResources();
    assertEquals(Map.of("memory.high", "50000000", "memory.min", "1000"), both.getUnifiedMap());
    assertEquals("1", both.getCpusetCpus());
  }

  @Test
  void theMountReplacesMountsAtItsPathAndComesLast() {
    Mount exported = mount("/.cri-resmgr", "/var/lib/cri-resmgr/containers/x");
    CreateContainerRequest sent =
        REQUEST.toBuilder()
            .setConfig(
                REQUEST.getConfig().toBuilder()
                    .addMounts(mount("/data", "/srv/a"))
                    .addMounts(mount("/.cri-resmgr", "/forged"))
                    .addMounts(mount("/logs", "/srv/b"))
                    .addMounts(mount("/.cri-resmgr", "/forged-too")))
            .build();

    ContainerConfig config =
        CreateRewriter.rewrite(
                sent, new ContainerEdits(), LinuxResources.NONE, Optional.of(exported))
            .getConfig();

    assertEquals(
        List.of(mount("/data", "/srv/a"), mount("/logs", "/srv/b"), exported),
        config.getMountsList());
  }

  @Test
  void withoutAMountTheMountsStay() {
    CreateContainerRequest sent =
        REQUEST.toBuilder()
            .setConfig(REQUEST.getConfig().toBuilder().addMounts(mount("/data", "/srv/a")))
            .build();
    assertEquals(
        List.of(mount("/data", "/srv/a")),
        CreateRewriter.rewrite(sent, new ContainerEdits(), LinuxResources.NONE, Optional.empty())
            .getConfig()
            .getMountsList());
  }

  /**
   * The one pass gives what the three rewrites it replaced gave (edits, then the annotation, then
   * the mount), for requests with and without linux resources and every kind of edit.
   */
  @Test
  void onePassEqualsTheThreeRewritesItReplaced() {
    LinuxResources requested = new LinuxResources(100_000, 0, 512, 1L << 28, "", "", Map.of());
    Mount exported = mount("/.cri-resmgr", "/var/lib/cri-resmgr/containers/x");
    CreateContainerRequest bare =
        REQUEST.toBuilder()
            .setConfig(REQUEST.getConfig().toBuilder().clearLinux().addMounts(exported))
            .build();
    for (CreateContainerRequest sent : List.of(REQUEST, bare)) {
      for (ContainerEdits edits : everyKindOfEdits()) {
        for (Optional<Mount> mount : List.of(Optional.<Mount>empty(), Optional.of(exported))) {
          assertEquals(
              threeRewrites(sent, edits, requested, mount),
              CreateRewriter.rewrite(sent, edits, requested, mount));
        }
      }
    }
  }

  private static List<ContainerEdits> everyKindOfEdits() {
    ContainerEdits none = new ContainerEdits();
    ContainerEdits resources = new ContainerEdits();
    resources.setLinuxResources(
        new LinuxResources(0, 0, 2, 0, "1-2", "0", Map.of("memory.min", "1000")));
    ContainerEdits claims = new ContainerEdits();
    claims.claimUnified("memory-qos", "memory.high", "5000");
    ContainerEdits all = new ContainerEdits();
    all.setLinuxResources(
        new LinuxResources(100_000, 50_000, 2, 1L << 20, "3", "", Map.of("memory.high", "1")));
    all.claimUnified("memory-qos", "memory.high", "5000");
    all.putAnnotation("b", "2");
    all.putEnv("X", "y");
    return List.of(none, resources, claims, all);
  }

  /** How the request was rewritten before the one pass: three rebuilds of the config. */
  private static CreateContainerRequest threeRewrites(
      CreateContainerRequest request,
      ContainerEdits edits,
      LinuxResources requested,
      Optional<Mount> mount) {
    ContainerConfig.Builder config = request.getConfig().toBuilder();
    edits
        .linuxResources()
        .ifPresent(
            linux -> {
              LinuxContainerConfig.Builder l = config.getLinux().toBuilder();
              l.setResources(LinuxResourcesCodec.applyTo(l.getResources(), linux));
              config.setLinux(l);
            });
    if (!edits.unified().isEmpty()) {
      LinuxContainerConfig.Builder l = config.getLinux().toBuilder();
      l.setResources(l.getResources().toBuilder().putAllUnified(edits.unified()));
      config.setLinux(l);
    }
    config.putAllAnnotations(edits.annotations());
    edits.env().forEach((k, v) -> config.addEnvs(KeyValue.newBuilder().setKey(k).setValue(v)));
    CreateContainerRequest edited = request.toBuilder().setConfig(config).build();
    CreateContainerRequest recorded =
        edited.toBuilder()
            .setConfig(
                edited.getConfig().toBuilder()
                    .putAnnotations(RequestedAnnotation.KEY, RequestedAnnotation.format(requested)))
            .build();
    if (mount.isEmpty()) {
      return recorded;
    }
    ContainerConfig.Builder mounted = recorded.getConfig().toBuilder().clearMounts();
    for (Mount m : recorded.getConfig().getMountsList()) {
      if (!m.getContainerPath().equals(mount.get().getContainerPath())) {
        mounted.addMounts(m);
      }
    }
    mounted.addMounts(mount.get());
    return recorded.toBuilder().setConfig(mounted).build();
  }

  private static Mount mount(String containerPath, String hostPath) {
    return Mount.newBuilder().setContainerPath(containerPath).setHostPath(hostPath).build();
  }
}
