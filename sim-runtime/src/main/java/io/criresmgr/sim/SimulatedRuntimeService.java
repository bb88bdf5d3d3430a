package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.AttachRequest;
import io.criresmgr.api.runtime.v1.AttachResponse;
import io.criresmgr.api.runtime.v1.CheckpointContainerRequest;
import io.criresmgr.api.runtime.v1.CheckpointContainerResponse;
import io.criresmgr.api.runtime.v1.ContainerEventResponse;
import io.criresmgr.api.runtime.v1.ContainerStatsRequest;
import io.criresmgr.api.runtime.v1.ContainerStatsResponse;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.ContainerStatusResponse;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.CreateContainerResponse;
import io.criresmgr.api.runtime.v1.ExecRequest;
import io.criresmgr.api.runtime.v1.ExecResponse;
import io.criresmgr.api.runtime.v1.ExecSyncRequest;
import io.criresmgr.api.runtime.v1.ExecSyncResponse;
import io.criresmgr.api.runtime.v1.GetEventsRequest;
import io.criresmgr.api.runtime.v1.ListContainerStatsRequest;
import io.criresmgr.api.runtime.v1.ListContainerStatsResponse;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListContainersResponse;
import io.criresmgr.api.runtime.v1.ListMetricDescriptorsRequest;
import io.criresmgr.api.runtime.v1.ListMetricDescriptorsResponse;
import io.criresmgr.api.runtime.v1.ListPodSandboxMetricsRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxMetricsResponse;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxResponse;
import io.criresmgr.api.runtime.v1.ListPodSandboxStatsRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxStatsResponse;
import io.criresmgr.api.runtime.v1.PodSandboxStatsRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatsResponse;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.PortForwardRequest;
import io.criresmgr.api.runtime.v1.PortForwardResponse;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemoveContainerResponse;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxResponse;
import io.criresmgr.api.runtime.v1.ReopenContainerLogRequest;
import io.criresmgr.api.runtime.v1.ReopenContainerLogResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxResponse;
import io.criresmgr.api.runtime.v1.RuntimeConfigRequest;
import io.criresmgr.api.runtime.v1.RuntimeConfigResponse;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StartContainerResponse;
import io.criresmgr.api.runtime.v1.StatusRequest;
import io.criresmgr.api.runtime.v1.StatusResponse;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerResponse;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxResponse;
import io.criresmgr.api.runtime.v1.StreamContainerStatsRequest;
import io.criresmgr.api.runtime.v1.StreamContainerStatsResponse;
import io.criresmgr.api.runtime.v1.StreamContainersRequest;
import io.criresmgr.api.runtime.v1.StreamContainersResponse;
import io.criresmgr.api.runtime.v1.StreamPodSandboxMetricsRequest;
import io.criresmgr.api.runtime.v1.StreamPodSandboxMetricsResponse;
import io.criresmgr.api.runtime.v1.StreamPodSandboxStatsRequest;
import io.criresmgr.api.runtime.v1.StreamPodSandboxStatsResponse;
import io.criresmgr.api.runtime.v1.StreamPodSandboxesRequest;
import io.criresmgr.api.runtime.v1.StreamPodSandboxesResponse;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesResponse;
import io.criresmgr.api.runtime.v1.UpdatePodSandboxResourcesRequest;
import io.criresmgr.api.runtime.v1.UpdatePodSandboxResourcesResponse;
import io.criresmgr.api.runtime.v1.UpdateRuntimeConfigRequest;
import io.criresmgr.api.runtime.v1.UpdateRuntimeConfigResponse;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.grpc.stub.StreamObserver;
import java.util.Objects;

/**
 * The simulated CRI {@code RuntimeService}: pods, containers, container events and zero-valued
 * stats kept in memory. Obtain it from {@link SimRuntime}; thread-safe. This class only adapts the
 * 36 RPCs to {@link PodRpcs}, {@link ContainerRpcs} and {@link Listings}, hence its length.
 */
public final class SimulatedRuntimeService extends RuntimeServiceGrpc.RuntimeServiceImplBase {
  private final SimOptions options;
  private final PodRpcs pods;
  private final ContainerRpcs containers;
  private final Listings listings;
  private final ContainerEventBus events;

  SimulatedRuntimeService(
      SimOptions options,
      PodRpcs pods,
      ContainerRpcs containers,
      Listings listings,
      ContainerEventBus events) {
    this.options = Objects.requireNonNull(options, "options");
    this.pods = Objects.requireNonNull(pods, "pods");
    this.containers = Objects.requireNonNull(containers, "containers");
    this.listings = Objects.requireNonNull(listings, "listings");
    this.events = Objects.requireNonNull(events, "events");
  }

  @Override
  public void version(VersionRequest request, StreamObserver<VersionResponse> observer) {
    Replies.unary(observer, () -> RuntimeInfo.version(options));
  }

  @Override
  public void runPodSandbox(
      RunPodSandboxRequest request, StreamObserver<RunPodSandboxResponse> observer) {
    Replies.unary(observer, () -> pods.run(request));
  }

  @Override
  public void stopPodSandbox(
      StopPodSandboxRequest request, StreamObserver<StopPodSandboxResponse> observer) {
    Replies.unary(observer, () -> pods.stop(request));
  }

  @Override
  public void removePodSandbox(
      RemovePodSandboxRequest request, StreamObserver<RemovePodSandboxResponse> observer) {
    Replies.unary(observer, () -> pods.remove(request));
  }

  @Override
  public void podSandboxStatus(
      PodSandboxStatusRequest request, StreamObserver<PodSandboxStatusResponse> observer) {
    Replies.unary(observer, () -> pods.status(request));
  }

  @Override
  public void listPodSandbox(
      ListPodSandboxRequest request, StreamObserver<ListPodSandboxResponse> observer) {
    Replies.unary(observer, () -> pods.list(request.getFilter()));
  }

  @Override
  public void streamPodSandboxes(
      StreamPodSandboxesRequest request, StreamObserver<StreamPodSandboxesResponse> observer) {
    Replies.stream(
        observer,
        () -> listings.pods(request.getFilter()),
        b -> StreamPodSandboxesResponse.newBuilder().addAllPodSandboxes(b).build());
  }

  @Override
  public void createContainer(
      CreateContainerRequest request, StreamObserver<CreateContainerResponse> observer) {
    Replies.unary(observer, () -> containers.create(request));
  }

  @Override
  public void startContainer(
      StartContainerRequest request, StreamObserver<StartContainerResponse> observer) {
    Replies.unary(observer, () -> containers.start(request));
  }

  @Override
  public void stopContainer(
      StopContainerRequest request, StreamObserver<StopContainerResponse> observer) {
    Replies.unary(observer, () -> containers.stop(request));
  }

  @Override
  public void removeContainer(
      RemoveContainerRequest request, StreamObserver<RemoveContainerResponse> observer) {
    Replies.unary(observer, () -> containers.remove(request));
  }

  @Override
  public void listContainers(
      ListContainersRequest request, StreamObserver<ListContainersResponse> observer) {
    Replies.unary(observer, () -> containers.list(request.getFilter()));
  }

  @Override
  public void streamContainers(
      StreamContainersRequest request, StreamObserver<StreamContainersResponse> observer) {
    Replies.stream(
        observer,
        () -> listings.containers(request.getFilter()),
        b -> StreamContainersResponse.newBuilder().addAllContainers(b).build());
  }

  @Override
  public void containerStatus(
      ContainerStatusRequest request, StreamObserver<ContainerStatusResponse> observer) {
    Replies.unary(observer, () -> containers.status(request));
  }

  @Override
  public void updateContainerResources(
      UpdateContainerResourcesRequest request,
      StreamObserver<UpdateContainerResourcesResponse> observer) {
    Replies.unary(observer, () -> containers.update(request));
  }

  @Override
  public void reopenContainerLog(
      ReopenContainerLogRequest request, StreamObserver<ReopenContainerLogResponse> observer) {
    Replies.unary(observer, () -> containers.reopenLog(request));
  }

  @Override
  public void execSync(ExecSyncRequest request, StreamObserver<ExecSyncResponse> observer) {
    Replies.unary(observer, () -> containers.execSync(request));
  }

  @Override
  public void exec(ExecRequest request, StreamObserver<ExecResponse> observer) {
    Replies.unary(observer, () -> containers.exec(request));
  }

  @Override
  public void attach(AttachRequest request, StreamObserver<AttachResponse> observer) {
    Replies.unary(observer, () -> containers.attach(request));
  }

  @Override
  public void portForward(
      PortForwardRequest request, StreamObserver<PortForwardResponse> observer) {
    Replies.unary(observer, () -> pods.portForward(request));
  }

  @Override
  public void containerStats(
      ContainerStatsRequest request, StreamObserver<ContainerStatsResponse> observer) {
    Replies.unary(observer, () -> containers.stats(request));
  }

  @Override
  public void listContainerStats(
      ListContainerStatsRequest request, StreamObserver<ListContainerStatsResponse> observer) {
    Replies.unary(observer, () -> containers.listStats(request.getFilter()));
  }

  @Override
  public void streamContainerStats(
      StreamContainerStatsRequest request, StreamObserver<StreamContainerStatsResponse> observer) {
    Replies.stream(
        observer,
        () -> listings.containerStats(request.getFilter()),
        b -> StreamContainerStatsResponse.newBuilder().addAllContainerStats(b).build());
  }

  @Override
  public void podSandboxStats(
      PodSandboxStatsRequest request, StreamObserver<PodSandboxStatsResponse> observer) {
    Replies.unary(observer, () -> pods.stats(request));
  }

  @Override
  public void listPodSandboxStats(
      ListPodSandboxStatsRequest request, StreamObserver<ListPodSandboxStatsResponse> observer) {
    Replies.unary(observer, () -> pods.listStats(request.getFilter()));
  }

  @Override
  public void streamPodSandboxStats(
      StreamPodSandboxStatsRequest request,
      StreamObserver<StreamPodSandboxStatsResponse> observer) {
    Replies.stream(
        observer,
        () -> listings.podStats(request.getFilter()),
        b -> StreamPodSandboxStatsResponse.newBuilder().addAllPodSandboxStats(b).build());
  }

  @Override
  public void updateRuntimeConfig(
      UpdateRuntimeConfigRequest request, StreamObserver<UpdateRuntimeConfigResponse> observer) {
    Replies.unary(observer, UpdateRuntimeConfigResponse::getDefaultInstance);
  }

  @Override
  public void status(StatusRequest request, StreamObserver<StatusResponse> observer) {
    Replies.unary(observer, RuntimeInfo::status);
  }

  @Override
  public void checkpointContainer(
      CheckpointContainerRequest request, StreamObserver<CheckpointContainerResponse> observer) {
    Replies.unary(observer, () -> containers.checkpoint(request));
  }

  /** Streams every later container event until the client cancels or the runtime closes. */
  @Override
  public void getContainerEvents(
      GetEventsRequest request, StreamObserver<ContainerEventResponse> observer) {
    events.subscribe(observer);
  }

  @Override
  public void listMetricDescriptors(
      ListMetricDescriptorsRequest request,
      StreamObserver<ListMetricDescriptorsResponse> observer) {
    Replies.unary(observer, ListMetricDescriptorsResponse::getDefaultInstance);
  }

  @Override
  public void listPodSandboxMetrics(
      ListPodSandboxMetricsRequest request,
      StreamObserver<ListPodSandboxMetricsResponse> observer) {
    Replies.unary(observer, ListPodSandboxMetricsResponse::getDefaultInstance);
  }

  @Override
  public void streamPodSandboxMetrics(
      StreamPodSandboxMetricsRequest request,
      StreamObserver<StreamPodSandboxMetricsResponse> observer) {
    observer.onCompleted();
  }

  @Override
  public void runtimeConfig(
      RuntimeConfigRequest request, StreamObserver<RuntimeConfigResponse> observer) {
    Replies.unary(observer, RuntimeInfo::runtimeConfig);
  }

  @Override
  public void updatePodSandboxResources(
      UpdatePodSandboxResourcesRequest request,
      StreamObserver<UpdatePodSandboxResourcesResponse> observer) {
    Replies.unary(observer, () -> pods.updateResources(request));
  }
}
