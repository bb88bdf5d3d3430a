package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.ContainerEventResponse;
import io.criresmgr.api.runtime.v1.ContainerEventType;
import io.criresmgr.grpc.unix.Shutdown;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans container events out to every {@code GetContainerEvents} subscriber. Events are delivered in
 * publication order on one daemon thread, so publishers (holding the state lock) never call into
 * client code.
 */
final class ContainerEventBus implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ContainerEventBus.class);

  private final Set<StreamObserver<ContainerEventResponse>> subscribers =
      ConcurrentHashMap.newKeySet();
  private final ExecutorService delivery =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "sim-runtime-events");
            t.setDaemon(true);
            return t;
          });

  /** Adds a subscriber until its call is cancelled or the bus is closed. */
  void subscribe(StreamObserver<ContainerEventResponse> observer) {
    if (observer instanceof ServerCallStreamObserver<ContainerEventResponse> call) {
      call.setOnCancelHandler(() -> subscribers.remove(observer));
    }
    if (!run(() -> subscribers.add(observer))) {
      complete(observer);
    }
  }

  /** The number of current subscribers. */
  int subscriberCount() {
    return subscribers.size();
  }

  /** Queues an event for a container; {@code pod} and {@code container} are the current views. */
  void publish(ContainerEventType type, SimPod pod, SimContainer container, long now) {
    ContainerEventResponse event =
        ContainerEventResponse.newBuilder()
            .setContainerId(container.id())
            .setContainerEventType(type)
            .setCreatedAt(now)
            .setPodSandboxStatus(PodViews.status(pod))
            .addContainersStatuses(ContainerViews.status(container))
            .build();
    run(() -> subscribers.forEach(s -> send(s, event)));
  }

  /** Completes every subscriber's stream and stops the delivery thread. */
  @Override
  public void close() {
    if (delivery.isShutdown()) {
      return;
    }
    run(
        () -> {
          subscribers.forEach(ContainerEventBus::complete);
          subscribers.clear();
        });
    Shutdown.draining(Shutdown.of(delivery), Duration.ofSeconds(5));
  }

  private void send(StreamObserver<ContainerEventResponse> subscriber, ContainerEventResponse e) {
    try {
      subscriber.onNext(e);
    } catch (RuntimeException ex) {
      log.debug("dropping container event subscriber: {}", ex.toString());
      subscribers.remove(subscriber);
    }
  }

  private static void complete(StreamObserver<ContainerEventResponse> subscriber) {
    try {
      subscriber.onCompleted();
    } catch (RuntimeException ex) {
      log.debug("container event subscriber already gone: {}", ex.toString());
    }
  }

  private boolean run(Runnable task) {
    try {
      delivery.execute(task);
      return true;
    } catch (RejectedExecutionException e) {
      log.debug("event bus closed, dropping task");
      return false;
    }
  }
}
