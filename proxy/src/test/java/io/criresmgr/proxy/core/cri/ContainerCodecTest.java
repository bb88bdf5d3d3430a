package io.criresmgr.proxy.core.cri;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerResources;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ContainerCodecTest {
  private static final Resources APP = new Resources(1000, 2000, 1L << 30, 2L << 30);
  private static final Resources SETUP = new Resources(250, 0, 0, 0);
  private static final PodResources ANNOTATED =
      new PodResources(Map.of("setup", SETUP), Map.of("app", APP));
  private static final LinuxContainerResources KUBELET =
      LinuxContainerResources.newBuilder()
          .setCpuPeriod(100_000)
          .setCpuQuota(50_000)
          .setCpuShares(512)
          .setMemoryLimitInBytes(1L << 30)
          .setOomScoreAdj(999)
          .setCpusetCpus("0-3")
          .putUnified("memory.high", "max")
          .build();
  private static final LinuxResources REQUESTED =
      new LinuxResources(100_000, 50_000, 512, 1L << 30, "0-3", "", Map.of("memory.high", "max"));

  @Test
  void cacheIdIsPodUidAndName() {
    assertEquals("1234:app", ContainerCodec.cacheId(pod("1234", ANNOTATED), "app"));
  }

  @Test
  void cacheIdOfAPodWithoutUidUsesTheSandboxId() {
    assertEquals("sb-1:app", ContainerCodec.cacheId(pod("", ANNOTATED), "app"));
  }

  @Test
  void fromRequestBuildsACreatingContainerWithAnnotatedResources() {
    Container expected =
        Container.builder()
            .cacheId("1234:app")
            .podId("sb-1")
            .name("app")
            .namespace("shop")
            .labels(Map.of("io.kubernetes.container.name", "app"))
            .annotations(Map.of("io.kubernetes.container.restartCount", "0"))
            .image("docker.io/library/nginx:1.27")
            .state(ContainerState.CREATING)
            .requested(REQUESTED)
            .resources(APP)
            .qosClass(QosClass.BURSTABLE)
            .seq(7)
            .build();
    assertEquals(
        expected,
        ContainerCodec.fromRequest("1234:app", 7, pod("1234", ANNOTATED), createRequest("app")));
  }

  @Test
  void fromRequestMarksInitContainersOfTheAnnotation() {
    Container c =
        ContainerCodec.fromRequest("1234:setup", 1, pod("1234", ANNOTATED), createRequest("setup"));
    assertTrue(c.initContainer());
    assertEquals(SETUP, c.resources());
  }

  @Test
  void aNativeSidecarIsNotAnInitContainerThatRunsToCompletion() {
    PodResources withSidecar =
        new PodResources(Map.of("setup", SETUP, "proxy", APP), Map.of(), Set.of("proxy"));
    Container proxy =
        ContainerCodec.fromRequest(
            "1234:proxy", 1, pod("1234", withSidecar), createRequest("proxy"));
    assertFalse(proxy.initContainer());
    assertEquals(APP, proxy.resources());
    ContainerStatus status =
        ContainerStatus.newBuilder()
            .setId("c0ffee")
            .setMetadata(ContainerMetadata.newBuilder().setName("proxy"))
            .build();
    assertFalse(
        ContainerCodec.fromStatus("1234:proxy", 1, pod("1234", withSidecar), status)
            .initContainer());
    assertTrue(
        ContainerCodec.fromRequest(
                "1234:setup", 2, pod("1234", withSidecar), createRequest("setup"))
            .initContainer());
  }

  @Test
  void fromRequestEstimatesResourcesWithoutTheAnnotation() {
    Container c =
        ContainerCodec.fromRequest(
            "1234:app", 1, pod("1234", PodResources.NONE), createRequest("app"));
    // Burstable: 512 shares -> 500m request, 50000/100000 quota -> 500m limit, memory limit only.
    assertEquals(new Resources(500, 500, 0, 1L << 30), c.resources());
  }

  @Test
  void fromStatusAdoptsARunningContainerWithItsCurrentResources() {
    ContainerStatus status =
        ContainerStatus.newBuilder()
            .setId("c0ffee")
            .setMetadata(ContainerMetadata.newBuilder().setName("app").setAttempt(3))
            .setState(io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING)
            .setCreatedAt(1_000)
            .setStartedAt(2_000)
            .setImage(ImageSpec.newBuilder().setImage("docker.io/library/nginx:1.27"))
            .setImageRef("docker.io/library/nginx@sha256:abc")
            .putLabels("io.kubernetes.container.name", "app")
            .putAnnotations("io.kubernetes.container.restartCount", "3")
            .setLogPath("/var/log/pods/app/3.log")
            .setResources(ContainerResources.newBuilder().setLinux(KUBELET))
            .build();
    Container expected =
        Container.builder()
            .cacheId("1234:app")
            .id("c0ffee")
            .podId("sb-1")
            .name("app")
            .namespace("shop")
            .labels(Map.of("io.kubernetes.container.name", "app"))
            .annotations(Map.of("io.kubernetes.container.restartCount", "3"))
            .image("docker.io/library/nginx:1.27")
            .state(ContainerState.RUNNING)
            .requested(REQUESTED)
            .resources(APP)
            .qosClass(QosClass.BURSTABLE)
            .seq(9)
            .build();
    assertEquals(
        expected, ContainerCodec.fromStatus("1234:app", 9, pod("1234", ANNOTATED), status));
  }

  @Test
  void fromStatusTakesTheRequestRecordedAtCreationOverTheRewrittenOne() {
    LinuxContainerResources rewritten =
        KUBELET.toBuilder().setCpuShares(2).setCpusetCpus("6-7").setCpusetMems("1").build();
    ContainerStatus status =
        ContainerStatus.newBuilder()
            .setId("c0ffee")
            .setMetadata(ContainerMetadata.newBuilder().setName("extra"))
            .setState(io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING)
            .putAnnotations("io.kubernetes.container.restartCount", "0")
            .putAnnotations(RequestedAnnotation.KEY, RequestedAnnotation.format(REQUESTED))
            .setResources(ContainerResources.newBuilder().setLinux(rewritten))
            .build();

    Container c = ContainerCodec.fromStatus("1234:extra", 1, pod("1234", ANNOTATED), status);

    assertEquals(REQUESTED, c.requested());
    assertEquals(new Resources(500, 500, 0, 1L << 30), c.resources()); // estimated from 512 shares
    assertEquals(Map.of("io.kubernetes.container.restartCount", "0"), c.annotations());
  }

  @Test
  void fromStatusWithAForeignAnnotationEstimatesFromTheRuntimesResources() {
    ContainerStatus status =
        ContainerStatus.newBuilder()
            .setId("c0ffee")
            .setMetadata(ContainerMetadata.newBuilder().setName("extra"))
            .setState(io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING)
            .putAnnotations(RequestedAnnotation.KEY, "{\"v\":2,\"shares\":512}")
            .setResources(ContainerResources.newBuilder().setLinux(KUBELET))
            .build();

    Container c = ContainerCodec.fromStatus("1234:extra", 1, pod("1234", ANNOTATED), status);

    assertEquals(REQUESTED, c.requested());
    assertEquals(Map.of(), c.annotations());
  }

  @Test
  void fromStatusWithoutResourcesRequestsNothing() {
    ContainerStatus status =
        ContainerStatus.newBuilder()
            .setId("c0ffee")
            .setMetadata(ContainerMetadata.newBuilder().setName("setup"))
            .setState(io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_EXITED)
            .build();
    Container c = ContainerCodec.fromStatus("1234:setup", 1, pod("1234", ANNOTATED), status);
    assertEquals(LinuxResources.NONE, c.requested());
    assertEquals(ContainerState.EXITED, c.state());
    assertEquals("", c.image());
    assertTrue(c.initContainer());
  }

  @Test
  void containersDecodedFromTwoRequestsShareTheirStrings() throws Exception {
    byte[] wire = createRequest("app").toByteArray();
    CreateContainerRequest first = CreateContainerRequest.parseFrom(wire);
    CreateContainerRequest second = CreateContainerRequest.parseFrom(wire);
    assertNotSame(
        first.getConfig().getImage().getImage(),
        second.getConfig().getImage().getImage(),
        "each parse makes its own strings");
    Container a = ContainerCodec.fromRequest("1234:app", 1, pod("1234", ANNOTATED), first);
    Container b = ContainerCodec.fromRequest("5678:app", 2, pod("5678", ANNOTATED), second);
    assertSame(a.image(), b.image());
    assertSame(a.name(), b.name());
    assertSame(
        a.labels().get("io.kubernetes.container.name"),
        b.labels().get("io.kubernetes.container.name"));
    assertSame(
        a.labels().keySet().iterator().next(), b.labels().keySet().iterator().next(), "keys");
    assertSame(
        a.annotations().get("io.kubernetes.container.restartCount"),
        b.annotations().get("io.kubernetes.container.restartCount"));
  }

  private static Pod pod(String uid, PodResources resources) {
    String parent = "kubepods-burstable-pod1234.slice";
    return new Pod(
        "sb-1",
        uid,
        "web",
        "shop",
        Map.of(),
        Map.of(),
        parent,
        QosClass.fromCgroupParent(parent),
        resources,
        true);
  }

  private static CreateContainerRequest createRequest(String name) {
    return CreateContainerRequest.newBuilder()
        .setPodSandboxId("sb-1")
        .setConfig(
            ContainerConfig.newBuilder()
                .setMetadata(ContainerMetadata.newBuilder().setName(name))
                .setImage(ImageSpec.newBuilder().setImage("docker.io/library/nginx:1.27"))
                .addCommand("nginx")
                .putLabels("io.kubernetes.container.name", name)
                .putAnnotations("io.kubernetes.container.restartCount", "0")
                .setLogPath(name + "/0.log")
                .setLinux(LinuxContainerConfig.newBuilder().setResources(KUBELET)))
        .setSandboxConfig(PodSandboxConfig.getDefaultInstance())
        .build();
  }
}
