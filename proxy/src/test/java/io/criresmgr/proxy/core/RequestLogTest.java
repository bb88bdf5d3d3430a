package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestLogTest {
  private static final String POD_ID = "8c1d2e3f4a5b6c7d8e9f";
  private static final String CONTAINER_ID = "0123456789abcdef0123";

  @Test
  void aPodIsNamespaceAndNameWhenTheRequestNamesIt() {
    RunPodSandboxRequest run =
        RunPodSandboxRequest.newBuilder()
            .setConfig(
                PodSandboxConfig.newBuilder()
                    .setMetadata(
                        PodSandboxMetadata.newBuilder().setNamespace("default").setName("web")))
            .build();
    assertEquals(
        Map.of("method", "RunPodSandbox", "pod", "default/web"),
        RequestLog.of("RunPodSandbox", run));
  }

  @Test
  void runtimeIdsAreShortenedAsCrictlShowsThem() {
    assertEquals(
        Map.of("method", "StopPodSandbox", "pod", "8c1d2e3f4a5b"),
        RequestLog.of(
            "StopPodSandbox", StopPodSandboxRequest.newBuilder().setPodSandboxId(POD_ID).build()));
    assertEquals(
        Map.of("method", "RemovePodSandbox", "pod", "8c1d2e3f4a5b"),
        RequestLog.of(
            "RemovePodSandbox",
            RemovePodSandboxRequest.newBuilder().setPodSandboxId(POD_ID).build()));
    Map<String, String> container = Map.of("container", "0123456789ab");
    assertEquals(
        container,
        without(
            RequestLog.of(
                "StartContainer",
                StartContainerRequest.newBuilder().setContainerId(CONTAINER_ID).build())));
    assertEquals(
        container,
        without(
            RequestLog.of(
                "StopContainer",
                StopContainerRequest.newBuilder().setContainerId(CONTAINER_ID).build())));
    assertEquals(
        container,
        without(
            RequestLog.of(
                "RemoveContainer",
                RemoveContainerRequest.newBuilder().setContainerId(CONTAINER_ID).build())));
    assertEquals(
        container,
        without(
            RequestLog.of(
                "UpdateContainerResources",
                UpdateContainerResourcesRequest.newBuilder()
                    .setContainerId(CONTAINER_ID)
                    .build())));
  }

  @Test
  void aCreatedContainerIsItsNameInItsPod() {
    CreateContainerRequest create =
        CreateContainerRequest.newBuilder()
            .setPodSandboxId(POD_ID)
            .setConfig(
                ContainerConfig.newBuilder()
                    .setMetadata(ContainerMetadata.newBuilder().setName("app")))
            .build();
    assertEquals(
        Map.of("method", "CreateContainer", "pod", "8c1d2e3f4a5b", "container", "app"),
        RequestLog.of("CreateContainer", create));
  }

  @Test
  void otherRequestsAndEmptyValuesGiveTheMethodAlone() {
    assertEquals(
        Map.of("method", "ListContainers"),
        RequestLog.of("ListContainers", ListContainersRequest.getDefaultInstance()));
    assertEquals(
        Map.of("method", "RunPodSandbox"),
        RequestLog.of("RunPodSandbox", RunPodSandboxRequest.getDefaultInstance()));
    assertEquals(
        Map.of("method", "StartContainer"),
        RequestLog.of("StartContainer", StartContainerRequest.getDefaultInstance()));
  }

  private static Map<String, String> without(Map<String, String> log) {
    return Map.of("container", log.get("container"));
  }
}
