package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.ListPodSandboxResponse;
import io.criresmgr.api.runtime.v1.ListPodSandboxStatsResponse;
import io.criresmgr.api.runtime.v1.PodSandboxFilter;
import io.criresmgr.api.runtime.v1.PodSandboxStatsFilter;
import io.criresmgr.api.runtime.v1.PodSandboxStatsRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatsResponse;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.PortForwardRequest;
import io.criresmgr.api.runtime.v1.PortForwardResponse;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxResponse;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxResponse;
import io.criresmgr.api.runtime.v1.UpdatePodSandboxResourcesRequest;
import io.criresmgr.api.runtime.v1.UpdatePodSandboxResourcesResponse;
import java.util.Map;
import java.util.Objects;

/** The pod sandbox RPCs as request-to-response functions; errors are thrown as statuses. */
final class PodRpcs {
  private final SimState state;
  private final Listings listings;

  PodRpcs(SimState state, Listings listings) {
    this.state = Objects.requireNonNull(state, "state");
    this.listings = Objects.requireNonNull(listings, "listings");
  }

  RunPodSandboxResponse run(RunPodSandboxRequest request) {
    String id = state.runPod(request.getConfig(), request.getRuntimeHandler());
    return RunPodSandboxResponse.newBuilder().setPodSandboxId(id).build();
  }

  StopPodSandboxResponse stop(StopPodSandboxRequest request) {
    state.stopPod(request.getPodSandboxId());
    return StopPodSandboxResponse.getDefaultInstance();
  }

  RemovePodSandboxResponse remove(RemovePodSandboxRequest request) {
    state.removePod(request.getPodSandboxId());
    return RemovePodSandboxResponse.getDefaultInstance();
  }

  /** The pod's status and its containers'; {@code verbose} adds containerd's info JSON. */
  PodSandboxStatusResponse status(PodSandboxStatusRequest request) {
    SimPod pod = state.pod(request.getPodSandboxId());
    return PodSandboxStatusResponse.newBuilder()
        .setStatus(PodViews.status(pod))
        .putAllInfo(request.getVerbose() ? VerboseInfo.of(pod) : Map.of())
        .addAllContainersStatuses(
            state.containersOf(pod.id()).stream().map(ContainerViews::status).toList())
        .setTimestamp(state.now())
        .build();
  }

  ListPodSandboxResponse list(PodSandboxFilter filter) {
    return ListPodSandboxResponse.newBuilder().addAllItems(listings.pods(filter)).build();
  }

  UpdatePodSandboxResourcesResponse updateResources(UpdatePodSandboxResourcesRequest request) {
    state.updatePodResources(
        request.getPodSandboxId(), request.getOverhead(), request.getResources());
    return UpdatePodSandboxResourcesResponse.getDefaultInstance();
  }

  PortForwardResponse portForward(PortForwardRequest request) {
    SimPod pod = state.pod(request.getPodSandboxId());
    return PortForwardResponse.newBuilder()
        .setUrl(StreamingUrls.of("portforward", pod.id()))
        .build();
  }

  PodSandboxStatsResponse stats(PodSandboxStatsRequest request) {
    SimPod pod = state.pod(request.getPodSandboxId());
    return PodSandboxStatsResponse.newBuilder()
        .setStats(StatsViews.pod(pod, state.containersOf(pod.id()), state.now()))
        .build();
  }

  ListPodSandboxStatsResponse listStats(PodSandboxStatsFilter filter) {
    return ListPodSandboxStatsResponse.newBuilder().addAllStats(listings.podStats(filter)).build();
  }
}
