package io.criresmgr.sim;

import com.google.protobuf.ByteString;
import io.criresmgr.api.runtime.v1.AttachRequest;
import io.criresmgr.api.runtime.v1.AttachResponse;
import io.criresmgr.api.runtime.v1.CheckpointContainerRequest;
import io.criresmgr.api.runtime.v1.CheckpointContainerResponse;
import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ContainerStatsFilter;
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
import io.criresmgr.api.runtime.v1.ListContainerStatsResponse;
import io.criresmgr.api.runtime.v1.ListContainersResponse;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemoveContainerResponse;
import io.criresmgr.api.runtime.v1.ReopenContainerLogRequest;
import io.criresmgr.api.runtime.v1.ReopenContainerLogResponse;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StartContainerResponse;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerResponse;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesResponse;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The container RPCs as request-to-response functions; errors are thrown as statuses. */
final class ContainerRpcs {
  private final SimState state;
  private final Listings listings;
  private final Path hostRoot;

  ContainerRpcs(SimState state, Listings listings, Path hostRoot) {
    this.state = Objects.requireNonNull(state, "state");
    this.listings = Objects.requireNonNull(listings, "listings");
    this.hostRoot = Objects.requireNonNull(hostRoot, "hostRoot");
  }

  CreateContainerResponse create(CreateContainerRequest request) {
    return CreateContainerResponse.newBuilder()
        .setContainerId(state.createContainer(request))
        .build();
  }

  StartContainerResponse start(StartContainerRequest request) {
    state.startContainer(request.getContainerId());
    return StartContainerResponse.getDefaultInstance();
  }

  StopContainerResponse stop(StopContainerRequest request) {
    state.stopContainer(request.getContainerId(), request.getTimeout());
    return StopContainerResponse.getDefaultInstance();
  }

  RemoveContainerResponse remove(RemoveContainerRequest request) {
    state.removeContainer(request.getContainerId());
    return RemoveContainerResponse.getDefaultInstance();
  }

  ListContainersResponse list(ContainerFilter filter) {
    return ListContainersResponse.newBuilder()
        .addAllContainers(listings.containers(filter))
        .build();
  }

  ContainerStatusResponse status(ContainerStatusRequest request) {
    SimContainer c = state.container(request.getContainerId());
    return ContainerStatusResponse.newBuilder()
        .setStatus(ContainerViews.status(c))
        .putAllInfo(request.getVerbose() ? VerboseInfo.of(c, hostRoot) : Map.of())
        .build();
  }

  /** Replaces the container's linux resources as a whole (kept if the request has none). */
  UpdateContainerResourcesResponse update(UpdateContainerResourcesRequest request) {
    String id = request.getContainerId();
    state.updateResources(
        id, request.hasLinux() ? request.getLinux() : state.container(id).resources());
    return UpdateContainerResourcesResponse.getDefaultInstance();
  }

  ReopenContainerLogResponse reopenLog(ReopenContainerLogRequest request) {
    state.runningContainer(request.getContainerId());
    return ReopenContainerLogResponse.getDefaultInstance();
  }

  /** Echoes the command line to stdout with exit code 0; the command {@code false} exits 1. */
  ExecSyncResponse execSync(ExecSyncRequest request) {
    state.runningContainer(request.getContainerId());
    List<String> cmd = request.getCmdList();
    if (cmd.equals(List.of("false"))) {
      return ExecSyncResponse.newBuilder().setExitCode(1).build();
    }
    String stdout = String.join(" ", cmd) + "\n";
    return ExecSyncResponse.newBuilder()
        .setStdout(ByteString.copyFrom(stdout, StandardCharsets.UTF_8))
        .build();
  }

  ExecResponse exec(ExecRequest request) {
    SimContainer c = state.runningContainer(request.getContainerId());
    return ExecResponse.newBuilder().setUrl(StreamingUrls.of("exec", c.id())).build();
  }

  AttachResponse attach(AttachRequest request) {
    SimContainer c = state.runningContainer(request.getContainerId());
    return AttachResponse.newBuilder().setUrl(StreamingUrls.of("attach", c.id())).build();
  }

  /** Not supported, as by most runtimes: UNIMPLEMENTED for an existing container. */
  CheckpointContainerResponse checkpoint(CheckpointContainerRequest request) {
    SimContainer c = state.container(request.getContainerId());
    throw Status.UNIMPLEMENTED
        .withDescription("cannot checkpoint container \"" + c.id() + "\": not supported")
        .asRuntimeException();
  }

  ContainerStatsResponse stats(ContainerStatsRequest request) {
    SimContainer c = state.container(request.getContainerId());
    return ContainerStatsResponse.newBuilder()
        .setStats(StatsViews.container(c, state.now()))
        .build();
  }

  ListContainerStatsResponse listStats(ContainerStatsFilter filter) {
    return ListContainerStatsResponse.newBuilder()
        .addAllStats(listings.containerStats(filter))
        .build();
  }
}
