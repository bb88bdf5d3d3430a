package io.criresmgr.fuzz;

import static io.criresmgr.fuzz.Refusals.valueOrRefusal;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.proxy.core.cri.ContainerCodec;
import io.criresmgr.proxy.core.cri.LinuxResourcesCodec;
import io.criresmgr.proxy.core.cri.PodCodec;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * The CRI codecs on any request the relay socket may receive (and any status the runtime may
 * report): the first byte picks the message, the rest is its protobuf encoding. A message protobuf
 * can decode gives a cache record, or an IllegalArgumentException naming what is malformed (the
 * pipeline answers INVALID_ARGUMENT). Requested linux resources survive a round trip through the
 * cache record.
 */
class CriCodecFuzzTest {
  private static final Pod POD = FuzzedPods.pod(Map.of());

  @FuzzTest(maxDuration = "20s")
  void criMessagesBecomeRecordsOrAreRefused(byte[] input) throws Exception {
    if (input.length == 0) {
      return;
    }
    byte[] message = Arrays.copyOfRange(input, 1, input.length);
    try {
      switch (input[0] & 0x7) {
        case 0 -> runPodSandbox(RunPodSandboxRequest.parseFrom(message));
        case 1 -> createContainer(CreateContainerRequest.parseFrom(message));
        case 2 -> containerStatus(ContainerStatus.parseFrom(message));
        case 3 -> podSandbox(PodSandbox.parseFrom(message));
        case 4 -> PodCodec.cgroupParent(PodSandboxStatusResponse.parseFrom(message));
        default ->
            resourcesRoundTrip(UpdateContainerResourcesRequest.parseFrom(message).getLinux());
      }
    } catch (InvalidProtocolBufferException e) {
      // Not a message: gRPC refuses it before our code sees it.
    }
  }

  private static Optional<Pod> runPodSandbox(RunPodSandboxRequest request) throws Exception {
    return valueOrRefusal(
        IllegalArgumentException.class, () -> PodCodec.fromRequest("sandbox-1", request));
  }

  private static void createContainer(CreateContainerRequest request) throws Exception {
    RunPodSandboxRequest run =
        RunPodSandboxRequest.newBuilder().setConfig(request.getSandboxConfig()).build();
    Optional<Pod> pod = runPodSandbox(run);
    if (pod.isPresent()) {
      String cacheId =
          ContainerCodec.cacheId(pod.get(), request.getConfig().getMetadata().getName());
      valueOrRefusal(
          IllegalArgumentException.class,
          () -> ContainerCodec.fromRequest(cacheId, 1, pod.get(), request));
    }
    resourcesRoundTrip(request.getConfig().getLinux().getResources());
  }

  private static void containerStatus(ContainerStatus status) throws Exception {
    valueOrRefusal(
        IllegalArgumentException.class,
        () -> ContainerCodec.fromStatus("uid-web:app", 1, POD, status));
  }

  private static void podSandbox(PodSandbox item) throws Exception {
    valueOrRefusal(
        IllegalArgumentException.class,
        () -> PodCodec.fromStatus(item, PodSandboxStatusResponse.getDefaultInstance()));
  }

  private static void resourcesRoundTrip(LinuxContainerResources proto) throws Exception {
    Optional<LinuxResources> resources =
        valueOrRefusal(IllegalArgumentException.class, () -> LinuxResourcesCodec.fromProto(proto));
    if (resources.isPresent()) {
      LinuxContainerResources written = LinuxResourcesCodec.toProto(resources.get());
      assertEquals(resources.get(), LinuxResourcesCodec.fromProto(written));
    }
  }
}
