package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ContainerStatsFilter;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxFilter;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.api.runtime.v1.PodSandboxStateValue;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StreamContainerStatsRequest;
import io.criresmgr.api.runtime.v1.StreamContainersRequest;
import io.criresmgr.api.runtime.v1.StreamImagesRequest;
import io.criresmgr.api.runtime.v1.StreamPodSandboxMetricsRequest;
import io.criresmgr.api.runtime.v1.StreamPodSandboxStatsRequest;
import io.criresmgr.api.runtime.v1.StreamPodSandboxesRequest;
import io.criresmgr.api.runtime.v1.StreamPodSandboxesResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** ListPodSandbox filters and the Stream* list RPCs. */
class SimListingsTest {
  private final InProcessSim env = new InProcessSim();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void podFiltersCombineWithAnd() {
    String web = env.runPod("web");
    String db = env.runPod("db");
    env.runtime.stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(db).build());

    assertEquals(List.of(web, db), podIds(PodSandboxFilter.getDefaultInstance()));
    assertEquals(List.of(web), podIds(state(PodSandboxState.SANDBOX_READY)));
    assertEquals(List.of(db), podIds(state(PodSandboxState.SANDBOX_NOTREADY)));
    assertEquals(List.of(db), podIds(PodSandboxFilter.newBuilder().setId(db).build()));
    assertEquals(
        List.of(web), podIds(PodSandboxFilter.newBuilder().putLabelSelector("app", "web").build()));
    assertEquals(
        List.of(),
        podIds(
            state(PodSandboxState.SANDBOX_READY).toBuilder()
                .putLabelSelector("app", "db")
                .build()));
  }

  @Test
  void streamPodSandboxesSendsBatchesOfAHundred() {
    List<String> ids = IntStream.range(0, 150).mapToObj(i -> env.runPod("pod" + i)).toList();
    List<StreamPodSandboxesResponse> messages = new ArrayList<>();
    env.runtime
        .streamPodSandboxes(StreamPodSandboxesRequest.getDefaultInstance())
        .forEachRemaining(messages::add);
    assertEquals(
        List.of(100, 50),
        messages.stream().map(StreamPodSandboxesResponse::getPodSandboxesCount).toList());
    List<String> streamed =
        messages.stream()
            .flatMap(m -> m.getPodSandboxesList().stream())
            .map(PodSandbox::getId)
            .toList();
    assertEquals(ids, streamed);
  }

  @Test
  void streamsCarryTheSameItemsAsTheLists() {
    String id = env.runningContainer("web");
    env.createContainer(
        env.podOf(id), "other", "busybox", LinuxContainerResources.getDefaultInstance());
    ContainerFilter filter = ContainerFilter.newBuilder().setId(id).build();
    assertEquals(
        List.of(id),
        flatten(
                env.runtime.streamContainers(
                    StreamContainersRequest.newBuilder().setFilter(filter).build()))
            .stream()
            .flatMap(m -> m.getContainersList().stream())
            .map(Container::getId)
            .toList());
    assertEquals(
        1,
        flatten(
                env.runtime.streamContainerStats(
                    StreamContainerStatsRequest.newBuilder()
                        .setFilter(ContainerStatsFilter.newBuilder().setId(id))
                        .build()))
            .get(0)
            .getContainerStatsCount());
    assertEquals(
        1,
        flatten(
                env.runtime.streamPodSandboxStats(
                    StreamPodSandboxStatsRequest.getDefaultInstance()))
            .get(0)
            .getPodSandboxStatsCount());
    assertEquals(
        1,
        flatten(env.images.streamImages(StreamImagesRequest.getDefaultInstance()))
            .get(0)
            .getImagesCount());
  }

  @Test
  void emptyStreamsJustEnd() {
    assertEquals(
        List.of(),
        flatten(env.runtime.streamPodSandboxes(StreamPodSandboxesRequest.getDefaultInstance())));
    assertEquals(
        List.of(),
        flatten(
            env.runtime.streamPodSandboxMetrics(
                StreamPodSandboxMetricsRequest.getDefaultInstance())));
  }

  private List<String> podIds(PodSandboxFilter filter) {
    return env
        .runtime
        .listPodSandbox(ListPodSandboxRequest.newBuilder().setFilter(filter).build())
        .getItemsList()
        .stream()
        .map(PodSandbox::getId)
        .toList();
  }

  private static PodSandboxFilter state(PodSandboxState state) {
    return PodSandboxFilter.newBuilder()
        .setState(PodSandboxStateValue.newBuilder().setState(state))
        .build();
  }

  private static <T> List<T> flatten(Iterator<T> iterator) {
    List<T> all = new ArrayList<>();
    iterator.forEachRemaining(all::add);
    return all;
  }
}
