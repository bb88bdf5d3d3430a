package io.criresmgr.api.runtime.v1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServiceDescriptor;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Pins the RPC sets of both CRI services, so a dropped or renamed RPC fails the build. */
class CriServicesTest {

  private static final List<String> RUNTIME_METHODS =
      List.of(
          "Version",
          "RunPodSandbox",
          "StopPodSandbox",
          "RemovePodSandbox",
          "PodSandboxStatus",
          "ListPodSandbox",
          "StreamPodSandboxes",
          "CreateContainer",
          "StartContainer",
          "StopContainer",
          "RemoveContainer",
          "ListContainers",
          "StreamContainers",
          "ContainerStatus",
          "UpdateContainerResources",
          "ReopenContainerLog",
          "ExecSync",
          "Exec",
          "Attach",
          "PortForward",
          "ContainerStats",
          "ListContainerStats",
          "StreamContainerStats",
          "PodSandboxStats",
          "ListPodSandboxStats",
          "StreamPodSandboxStats",
          "UpdateRuntimeConfig",
          "Status",
          "CheckpointContainer",
          "GetContainerEvents",
          "ListMetricDescriptors",
          "ListPodSandboxMetrics",
          "StreamPodSandboxMetrics",
          "RuntimeConfig",
          "UpdatePodSandboxResources");

  private static final List<String> IMAGE_METHODS =
      List.of(
          "ListImages", "StreamImages", "ImageStatus", "PullImage", "RemoveImage", "ImageFsInfo");

  private static final Set<String> SERVER_STREAMING =
      Set.of(
          "runtime.v1.RuntimeService/StreamPodSandboxes",
          "runtime.v1.RuntimeService/StreamContainers",
          "runtime.v1.RuntimeService/StreamContainerStats",
          "runtime.v1.RuntimeService/StreamPodSandboxStats",
          "runtime.v1.RuntimeService/GetContainerEvents",
          "runtime.v1.RuntimeService/StreamPodSandboxMetrics",
          "runtime.v1.ImageService/StreamImages");

  @Test
  void runtimeServiceHasAllUpstreamMethods() {
    ServiceDescriptor service = RuntimeServiceGrpc.getServiceDescriptor();
    assertEquals("runtime.v1.RuntimeService", service.getName());
    assertEquals(35, service.getMethods().size());
    assertEquals(fullNames(service.getName(), RUNTIME_METHODS), fullNames(service));
  }

  @Test
  void imageServiceHasAllUpstreamMethods() {
    ServiceDescriptor service = ImageServiceGrpc.getServiceDescriptor();
    assertEquals("runtime.v1.ImageService", service.getName());
    assertEquals(6, service.getMethods().size());
    assertEquals(fullNames(service.getName(), IMAGE_METHODS), fullNames(service));
  }

  @Test
  void exactlyTheStreamMethodsAreServerStreamingAndTheRestUnary() {
    List<MethodDescriptor<?, ?>> all =
        Stream.of(
                RuntimeServiceGrpc.getServiceDescriptor(), ImageServiceGrpc.getServiceDescriptor())
            .flatMap(service -> service.getMethods().stream())
            .toList();
    assertEquals(SERVER_STREAMING, namesOfType(all, MethodType.SERVER_STREAMING));
    assertEquals(all.size() - SERVER_STREAMING.size(), namesOfType(all, MethodType.UNARY).size());
  }

  private static Set<String> namesOfType(List<MethodDescriptor<?, ?>> methods, MethodType type) {
    return methods.stream()
        .filter(method -> method.getType() == type)
        .map(MethodDescriptor::getFullMethodName)
        .collect(Collectors.toSet());
  }

  private static Set<String> fullNames(ServiceDescriptor service) {
    return service.getMethods().stream()
        .map(MethodDescriptor::getFullMethodName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> fullNames(String service, List<String> methods) {
    return methods.stream()
        .map(method -> MethodDescriptor.generateFullMethodName(service, method))
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
