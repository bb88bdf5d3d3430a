package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesResponse;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CRI controller's updates of re-assigned containers: each gets the resources of its own
 * assignment and requests (the controller builds them once per pool, docs/benchmarks.md, "Issue 20:
 * re-assigned containers"), and a container's updates reach the runtime in order whether the
 * runtime answers at once or later.
 */
class CriControllerTest {
  private final List<UpdateContainerResourcesRequest> received = new ArrayList<>();
  private final List<StreamObserver<UpdateContainerResourcesResponse>> held = new ArrayList<>();
  private boolean hold;
  private Server server;
  private ManagedChannel channel;

  private RuntimeUpdates start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new RuntimeServiceGrpc.RuntimeServiceImplBase() {
                  @Override
                  public void updateContainerResources(
                      UpdateContainerResourcesRequest request,
                      StreamObserver<UpdateContainerResourcesResponse> reply) {
                    received.add(request);
                    if (hold) {
                      held.add(reply);
                    } else {
                      answer(reply);
                    }
                  }
                })
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    return new RuntimeUpdates(new RuntimeClient(channel));
  }

  private static void answer(StreamObserver<UpdateContainerResourcesResponse> reply) {
    reply.onNext(UpdateContainerResourcesResponse.getDefaultInstance());
    reply.onCompleted();
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  private static Container container(String name, Assignment assignment, long shares) {
    return Container.builder()
        .cacheId("uid-p:" + name)
        .id("ctr-" + name)
        .podId("p")
        .name(name)
        .namespace("default")
        .image("img")
        .state(ContainerState.RUNNING)
        .resources(Resources.NONE)
        .qosClass(QosClass.BURSTABLE)
        .requested(new LinuxResources(100000, -1, shares, 0, "", "", Map.of()))
        .assignment(assignment)
        .pending(Set.of(CriController.NAME))
        .seq(1)
        .build();
  }

  @Test
  void eachContainerGetsTheResourcesOfItsAssignmentAndRequests() throws Exception {
    CriController cri = new CriController(start());
    Assignment pool = Assignment.of(CpuSet.of(2, 3), CpuSet.of(0));
    Assignment other = Assignment.of(CpuSet.of(4), CpuSet.of(0));
    cri.postUpdate(container("a", pool, 512));
    cri.postUpdate(container("b", pool, 512));
    cri.postUpdate(container("c", pool, 1024)); // the same pool, other requests
    cri.postUpdate(container("d", other, 1024)); // the same requests, another pool
    cri.postUpdate(container("e", pool, 512));
    assertEquals(
        List.of(
            "ctr-a 2-3 512", "ctr-b 2-3 512", "ctr-c 2-3 1024", "ctr-d 4 1024", "ctr-e 2-3 512"),
        received.stream()
            .map(
                r ->
                    r.getContainerId()
                        + " "
                        + r.getLinux().getCpusetCpus()
                        + " "
                        + r.getLinux().getCpuShares())
            .toList());
  }

  @Test
  void aContainersUpdatesGoOutInOrderAnsweredAtOnceOrLater() throws Exception {
    RuntimeUpdates updates = start();
    CriController cri = new CriController(updates);
    Assignment first = Assignment.of(CpuSet.of(1), CpuSet.of(0));
    Assignment second = Assignment.of(CpuSet.of(2), CpuSet.of(0));

    // Answered at once: nothing in flight, nothing for the step to wait for.
    cri.postUpdate(container("a", first, 512));
    CompletableFuture<Void> none = updates.takeStepSends();
    assertTrue(none.isDone(), "an answered update is not awaited");

    // Answered later: the second update of a waits behind the first.
    hold = true;
    cri.postUpdate(container("a", second, 512));
    cri.postUpdate(container("a", first, 512));
    CompletableFuture<Void> step = updates.takeStepSends();
    assertEquals(2, received.size(), "the second update is not sent before the first is answered");
    assertFalse(step.isDone());
    answer(held.remove(0));
    assertEquals(3, received.size(), "sent once the one before it was answered");
    assertFalse(step.isDone());
    answer(held.remove(0));
    step.get(5, TimeUnit.SECONDS);
    assertEquals(
        List.of("1", "2", "1"),
        received.stream().map(r -> r.getLinux().getCpusetCpus()).toList(),
        "in the order decided");
  }

  @Test
  void aFailedUpdateEndsItsStepsWaitEvenIfItsListenerThrows() throws Exception {
    RuntimeUpdates updates = start();
    List<String> heard = new ArrayList<>();
    updates.onFailure(
        (id, a) -> {
          heard.add(id);
          throw new IllegalStateException("a listener's bug");
        });
    hold = true;
    CompletableFuture<Void> sent =
        updates.send(
            "uid-p:a",
            "ctr-a",
            LinuxContainerResources.getDefaultInstance(),
            Assignment.of(CpuSet.of(2), CpuSet.of(0)));
    CompletableFuture<Void> step = updates.takeStepSends();
    assertFalse(step.isDone());
    try {
      held.get(0).onError(Status.UNAVAILABLE.asRuntimeException());
    } catch (RuntimeException e) {
      // the listener's exception may surface here through the direct executors
    }
    assertEquals(List.of("uid-p:a"), heard);
    assertTrue(sent.isDone(), "the update ended");
    step.get(5, TimeUnit.SECONDS); // the step waiting for its sends goes on
  }
}
