package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.ContainerEventResponse;
import io.criresmgr.api.runtime.v1.ContainerEventType;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.CreateContainerResponse;
import io.criresmgr.api.runtime.v1.GetEventsRequest;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PullImageRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulated runtime over a real Unix socket (Netty epoll), as the proxy will reach it. */
class SimRuntimeServerIT {
  private static final long LATENCY_MS = 50;
  private static final int CONCURRENT_CALLS = 16;

  @TempDir Path dir;

  @Test
  void servesBothServicesAndCleansUp() throws Exception {
    Path socket = dir.resolve("run/sim/cri.sock");
    RecordingObserver<ContainerEventResponse> events = new RecordingObserver<>();
    try (SimClient client = new SimClient(socket);
        SimRuntimeServer server = new SimRuntimeServer(socket, new SimRuntime()).start()) {
      assertTrue(Files.exists(socket), "socket created with its directories");
      assertEquals(
          "cri-resmgr-sim-runtime",
          client.runtime.version(VersionRequest.getDefaultInstance()).getRuntimeName());

      client.runtimeAsync.getContainerEvents(GetEventsRequest.getDefaultInstance(), events);
      awaitSubscriber(server.runtime());
      client.images.pullImage(
          PullImageRequest.newBuilder()
              .setImage(ImageSpec.newBuilder().setImage("busybox"))
              .build());
      String pod =
          client
              .runtime
              .runPodSandbox(
                  RunPodSandboxRequest.newBuilder()
                      .setConfig(InProcessSim.podConfig("web"))
                      .build())
              .getPodSandboxId();
      LinuxContainerResources resources =
          LinuxContainerResources.newBuilder().setCpusetCpus("0-1").setCpuShares(256).build();
      String id =
          client
              .runtime
              .createContainer(InProcessSim.createRequest(pod, "app", "busybox", resources))
              .getContainerId();
      assertEquals(
          resources,
          client
              .runtime
              .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build())
              .getStatus()
              .getResources()
              .getLinux());
      ContainerEventResponse created = events.next();
      assertEquals(ContainerEventType.CONTAINER_CREATED_EVENT, created.getContainerEventType());
      assertEquals(id, created.getContainerId());

      server.runtime().hooks().setLatency("Version", Duration.ofSeconds(2));
      StatusRuntimeException e =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  client
                      .runtime
                      .withDeadlineAfter(100, TimeUnit.MILLISECONDS)
                      .version(VersionRequest.getDefaultInstance()));
      assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
    }
    assertNull(events.awaitEnd(), "event stream completed on close");
    assertFalse(Files.exists(socket), "socket removed on close");
  }

  @Test
  void replacesAStaleSocketFile() throws Exception {
    Path socket = dir.resolve("stale.sock");
    Files.writeString(socket, "left over by a crash");
    try (SimRuntimeServer server = new SimRuntimeServer(socket, new SimRuntime()).start();
        SimClient client = new SimClient(server.socket())) {
      assertEquals(
          "v1", client.runtime.version(VersionRequest.getDefaultInstance()).getRuntimeApiVersion());
    }
  }

  @Test
  void concurrentCallsAreDelayedInParallel() throws Exception {
    Path socket = dir.resolve("slow.sock");
    SimRuntime runtime = new SimRuntime(SimOptions.defaults().withImages(List.of("busybox")));
    try (SimRuntimeServer server = new SimRuntimeServer(socket, runtime).start();
        SimClient client = new SimClient(server.socket())) {
      String pod =
          client
              .runtime
              .runPodSandbox(
                  RunPodSandboxRequest.newBuilder()
                      .setConfig(InProcessSim.podConfig("web"))
                      .build())
              .getPodSandboxId();
      runtime.hooks().setLatency("CreateContainer", Duration.ofMillis(LATENCY_MS));
      List<RecordingObserver<CreateContainerResponse>> calls = new ArrayList<>();
      long start = System.nanoTime();
      for (int i = 0; i < CONCURRENT_CALLS; i++) {
        RecordingObserver<CreateContainerResponse> call = new RecordingObserver<>();
        client.runtimeAsync.createContainer(
            InProcessSim.createRequest(
                pod, "c" + i, "busybox", LinuxContainerResources.getDefaultInstance()),
            call);
        calls.add(call);
      }
      for (RecordingObserver<CreateContainerResponse> call : calls) {
        assertNull(call.awaitEnd());
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis >= LATENCY_MS, "delayed: " + millis + " ms");
      assertTrue(
          millis < CONCURRENT_CALLS * LATENCY_MS / 2,
          CONCURRENT_CALLS + " calls took " + millis + " ms, as if served one after another");
      assertEquals(CONCURRENT_CALLS, runtime.hooks().callCount("CreateContainer"));
    }
  }

  private static void awaitSubscriber(SimRuntime runtime) throws InterruptedException {
    for (int i = 0; i < 500 && runtime.eventSubscribers() == 0; i++) {
      Thread.sleep(10);
    }
    assertEquals(1, runtime.eventSubscribers());
  }
}
