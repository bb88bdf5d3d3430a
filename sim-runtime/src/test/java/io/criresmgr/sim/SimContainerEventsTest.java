package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.criresmgr.api.runtime.v1.ContainerEventResponse;
import io.criresmgr.api.runtime.v1.ContainerEventType;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.GetEventsRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.grpc.Context;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** GetContainerEvents: every subscriber sees every container state change, in order. */
class SimContainerEventsTest {
  private final InProcessSim env = new InProcessSim();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void everySubscriberSeesTheLifecycleInOrder() throws InterruptedException {
    RecordingObserver<ContainerEventResponse> first = subscribe(Context.current());
    RecordingObserver<ContainerEventResponse> second = subscribe(Context.current());
    env.pull("busybox");
    String pod = env.runPod("web");
    String id =
        env.createContainer(pod, "c", "busybox", LinuxContainerResources.getDefaultInstance());
    env.runtime.startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    env.runtime.stopContainer(
        StopContainerRequest.newBuilder().setContainerId(id).setTimeout(5).build());
    env.runtime.removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());

    for (RecordingObserver<ContainerEventResponse> events : List.of(first, second)) {
      assertEvent(
          events.next(),
          ContainerEventType.CONTAINER_CREATED_EVENT,
          id,
          pod,
          ContainerState.CONTAINER_CREATED);
      assertEvent(
          events.next(),
          ContainerEventType.CONTAINER_STARTED_EVENT,
          id,
          pod,
          ContainerState.CONTAINER_RUNNING);
      assertEvent(
          events.next(),
          ContainerEventType.CONTAINER_STOPPED_EVENT,
          id,
          pod,
          ContainerState.CONTAINER_EXITED);
      assertEvent(
          events.next(),
          ContainerEventType.CONTAINER_DELETED_EVENT,
          id,
          pod,
          ContainerState.CONTAINER_EXITED);
    }
  }

  @Test
  void removingAPodStopsAndDeletesItsRunningContainers() throws InterruptedException {
    String id = env.runningContainer("web");
    RecordingObserver<ContainerEventResponse> events = subscribe(Context.current());
    String pod = env.podOf(id);
    env.runtime.removePodSandbox(RemovePodSandboxRequest.newBuilder().setPodSandboxId(pod).build());
    ContainerEventResponse stopped = events.next();
    assertEquals(ContainerEventType.CONTAINER_STOPPED_EVENT, stopped.getContainerEventType());
    assertEquals(137, stopped.getContainersStatuses(0).getExitCode());
    assertEquals(ContainerEventType.CONTAINER_DELETED_EVENT, events.next().getContainerEventType());
  }

  @Test
  void cancelledSubscribersGetNoMoreEventsAndCloseCompletesTheRest() throws InterruptedException {
    Context.CancellableContext cancellable = Context.current().withCancellation();
    RecordingObserver<ContainerEventResponse> cancelled = subscribe(cancellable);
    RecordingObserver<ContainerEventResponse> staying = subscribe(Context.current());
    assertEquals(2, env.sim.eventSubscribers());
    cancellable.cancel(null);
    awaitSubscribers(1);

    String id = env.runningContainer("web");
    assertEquals(id, staying.next().getContainerId());
    env.sim.close();
    assertEquals(
        ContainerEventType.CONTAINER_STARTED_EVENT, staying.next().getContainerEventType());
    assertNull(staying.awaitEnd(), "completed normally");
    assertNull(cancelled.poll(100), "no events after cancellation");
  }

  private RecordingObserver<ContainerEventResponse> subscribe(Context context)
      throws InterruptedException {
    RecordingObserver<ContainerEventResponse> observer = new RecordingObserver<>();
    int before = env.sim.eventSubscribers();
    context.run(
        () -> env.runtimeAsync.getContainerEvents(GetEventsRequest.getDefaultInstance(), observer));
    awaitSubscribers(before + 1);
    return observer;
  }

  private void awaitSubscribers(int count) throws InterruptedException {
    for (int i = 0; i < 500 && env.sim.eventSubscribers() != count; i++) {
      Thread.sleep(10);
    }
    assertEquals(count, env.sim.eventSubscribers());
  }

  private static void assertEvent(
      ContainerEventResponse event,
      ContainerEventType type,
      String id,
      String pod,
      ContainerState state) {
    assertEquals(type, event.getContainerEventType());
    assertEquals(id, event.getContainerId());
    assertEquals(pod, event.getPodSandboxStatus().getId());
    assertEquals(PodSandboxState.SANDBOX_READY, event.getPodSandboxStatus().getState());
    assertEquals(state, event.getContainersStatuses(0).getState());
    assertEquals(id, event.getContainersStatuses(0).getId());
  }
}
