package io.criresmgr.proxy.core.cri;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.api.runtime.v1.PodSandboxStatus;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.PodResourcesAnnotation;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodCodecTest {
  private static final String SANDBOX = "5b3a";
  private static final String SYSTEMD_BURSTABLE = "kubepods-burstable-pod1234.slice";
  private static final String CGROUPFS_GUARANTEED = "/kubepods/pod1234";
  private static final PodSandboxMetadata METADATA =
      PodSandboxMetadata.newBuilder()
          .setName("web")
          .setNamespace("shop")
          .setUid("1234")
          .setAttempt(2)
          .build();

  @Test
  void fromRequestTakesIdentityLabelsAnnotationsAndQos() {
    RunPodSandboxRequest request =
        RunPodSandboxRequest.newBuilder()
            .setConfig(
                PodSandboxConfig.newBuilder()
                    .setMetadata(METADATA)
                    .setHostname("web-0")
                    .putLabels("app", "web")
                    .putAnnotations("kubernetes.io/config.source", "api")
                    .setLinux(
                        LinuxPodSandboxConfig.newBuilder().setCgroupParent(SYSTEMD_BURSTABLE)))
            .setRuntimeHandler("runc")
            .build();
    Pod expected =
        new Pod(
            SANDBOX,
            "1234",
            "web",
            "shop",
            Map.of("app", "web"),
            Map.of("kubernetes.io/config.source", "api"),
            SYSTEMD_BURSTABLE,
            QosClass.BURSTABLE,
            PodResources.NONE,
            true);
    assertEquals(expected, PodCodec.fromRequest(SANDBOX, request));
  }

  @Test
  void fromRequestWithoutLinuxConfigIsBestEffort() {
    RunPodSandboxRequest request =
        RunPodSandboxRequest.newBuilder()
            .setConfig(PodSandboxConfig.newBuilder().setMetadata(METADATA))
            .build();
    Pod pod = PodCodec.fromRequest(SANDBOX, request);
    assertEquals("", pod.cgroupParent());
    assertEquals(QosClass.BEST_EFFORT, pod.qosClass());
    assertEquals(Map.of(), pod.labels());
  }

  @Test
  void fromRequestReadsTheWebhookAnnotation() {
    String json =
        "{\"initContainers\":{\"setup\":{\"requests\":{\"cpu\":\"250m\"}}},"
            + "\"containers\":{\"app\":{\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\"},"
            + "\"limits\":{\"cpu\":\"2\",\"memory\":\"2Gi\"}}}}";
    Pod pod = PodCodec.fromRequest(SANDBOX, withAnnotation(json));
    assertEquals(
        new PodResources(
            Map.of("setup", new Resources(250, 0, 0, 0)),
            Map.of("app", new Resources(1000, 2000, 1L << 30, 2L << 30))),
        pod.resources());
  }

  @Test
  void fromRequestRejectsAMalformedWebhookAnnotation() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PodCodec.fromRequest(SANDBOX, withAnnotation("{not json")));
    assertTrue(e.getMessage().contains(PodResourcesAnnotation.KEY), e.getMessage());
  }

  @Test
  void fromStatusReadsContainerdsCgroupParent() {
    String info =
        "{\"pid\":42,\"processStatus\":\"running\",\"config\":{\"metadata\":{\"name\":\"web\"},"
            + "\"linux\":{\"cgroup_parent\":\""
            + CGROUPFS_GUARANTEED
            + "\"}}}";
    Pod expected =
        new Pod(
            SANDBOX,
            "1234",
            "web",
            "shop",
            Map.of("app", "web"),
            Map.of("note", "x"),
            CGROUPFS_GUARANTEED,
            QosClass.GUARANTEED,
            PodResources.NONE,
            true);
    assertEquals(
        expected, PodCodec.fromStatus(listItem(PodSandboxState.SANDBOX_READY), verbose(info)));
  }

  @Test
  void fromStatusReadsCriOsCgroupParent() {
    String info =
        "{\"pid\":42,\"runtimeSpec\":{\"annotations\":{"
            + "\"io.kubernetes.cri-o.CgroupParent\":\""
            + SYSTEMD_BURSTABLE
            + "\"}}}";
    Pod pod = PodCodec.fromStatus(listItem(PodSandboxState.SANDBOX_NOTREADY), verbose(info));
    assertEquals(SYSTEMD_BURSTABLE, pod.cgroupParent());
    assertEquals(QosClass.BURSTABLE, pod.qosClass());
    assertFalse(pod.ready());
  }

  @Test
  void missingOrMalformedInfoMeansNoCgroupParent() {
    PodSandboxStatusResponse none =
        PodSandboxStatusResponse.newBuilder()
            .setStatus(PodSandboxStatus.newBuilder().setId(SANDBOX))
            .build();
    assertEquals("", PodCodec.cgroupParent(none));
    assertEquals("", PodCodec.cgroupParent(verbose("{\"config\":{\"linux\":{}}}")));
    assertEquals(
        "", PodCodec.cgroupParent(verbose("{\"config\":{\"linux\":{\"cgroup_parent\":1}}}")));
    assertEquals("", PodCodec.cgroupParent(verbose("not json")));
    assertEquals("", PodCodec.cgroupParent(verbose("[]")));
    Pod pod = PodCodec.fromStatus(listItem(PodSandboxState.SANDBOX_READY), none);
    assertEquals(QosClass.BEST_EFFORT, pod.qosClass());
  }

  private static RunPodSandboxRequest withAnnotation(String json) {
    return RunPodSandboxRequest.newBuilder()
        .setConfig(
            PodSandboxConfig.newBuilder()
                .setMetadata(METADATA)
                .putAnnotations(PodResourcesAnnotation.KEY, json))
        .build();
  }

  private static PodSandbox listItem(PodSandboxState state) {
    return PodSandbox.newBuilder()
        .setId(SANDBOX)
        .setMetadata(METADATA)
        .setState(state)
        .setCreatedAt(1_000)
        .putLabels("app", "web")
        .putAnnotations("note", "x")
        .setRuntimeHandler("runc")
        .build();
  }

  private static PodSandboxStatusResponse verbose(String info) {
    return PodSandboxStatusResponse.newBuilder()
        .setStatus(PodSandboxStatus.newBuilder().setId(SANDBOX).setMetadata(METADATA))
        .putInfo("info", info)
        .build();
  }
}
