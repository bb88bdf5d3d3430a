package io.criresmgr.agent.server;

import io.criresmgr.agent.kube.NodeApi;
import io.criresmgr.api.agent.v1.AgentGrpc;
import io.criresmgr.api.agent.v1.GetNodeReply;
import io.criresmgr.api.agent.v1.GetNodeRequest;
import io.criresmgr.api.agent.v1.HealthCheckReply;
import io.criresmgr.api.agent.v1.HealthCheckRequest;
import io.criresmgr.api.agent.v1.PatchNodeReply;
import io.criresmgr.api.agent.v1.PatchNodeRequest;
import io.criresmgr.api.agent.v1.UpdateNodeCapacityReply;
import io.criresmgr.api.agent.v1.UpdateNodeCapacityRequest;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.kubernetes.client.openapi.ApiException;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code v1.Agent} service, as cri-resmgr's agent serves it: the node's Node object read and
 * patched on the daemon's behalf, extended resource capacities, and health. A request the agent
 * refuses fails with {@code INVALID_ARGUMENT}; a failed API server call with {@code UNAVAILABLE}
 * and the API server's status and message.
 */
public final class AgentService extends AgentGrpc.AgentImplBase {
  private static final Logger log = LoggerFactory.getLogger(AgentService.class);

  private final NodeApi node;
  private final HealthQueries health;

  /** The service for {@code node}, answering health queries with {@code health}. */
  public AgentService(NodeApi node, HealthQueries health) {
    this.node = Objects.requireNonNull(node, "node");
    this.health = Objects.requireNonNull(health, "health");
  }

  @Override
  public void getNode(GetNodeRequest request, StreamObserver<GetNodeReply> reply) {
    try {
      answer(reply, GetNodeReply.newBuilder().setNode(node.nodeJson()).build());
    } catch (ApiException e) {
      unavailable(reply, "GetNode", e);
    }
  }

  @Override
  public void patchNode(PatchNodeRequest request, StreamObserver<PatchNodeReply> reply) {
    String patch;
    try {
      patch = JsonPatches.toJson(request.getPatchesList());
    } catch (IllegalArgumentException e) {
      reply.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    try {
      node.jsonPatch(patch);
      answer(reply, PatchNodeReply.getDefaultInstance());
    } catch (ApiException e) {
      unavailable(reply, "PatchNode", e);
    }
  }

  @Override
  public void updateNodeCapacity(
      UpdateNodeCapacityRequest request, StreamObserver<UpdateNodeCapacityReply> reply) {
    Optional<String> refused = Capacities.error(request.getCapacitiesMap());
    if (refused.isPresent()) {
      reply.onError(Status.INVALID_ARGUMENT.withDescription(refused.get()).asRuntimeException());
      return;
    }
    try {
      node.mergePatchStatus(Capacities.statusPatch(request.getCapacitiesMap()));
      answer(reply, UpdateNodeCapacityReply.getDefaultInstance());
    } catch (ApiException e) {
      unavailable(reply, "UpdateNodeCapacity", e);
    }
  }

  @Override
  public void healthCheck(HealthCheckRequest request, StreamObserver<HealthCheckReply> reply) {
    answer(reply, HealthCheckReply.newBuilder().setError(health.error(request.getQuery())).build());
  }

  private static <T> void answer(StreamObserver<T> reply, T value) {
    reply.onNext(value);
    reply.onCompleted();
  }

  private void unavailable(StreamObserver<?> reply, String method, ApiException e) {
    String why = method + " on node " + node.nodeName() + ": " + NodeApi.describe(e);
    // The daemon logs the failure it gets; debug here keeps one line per failure.
    log.debug("{}", why);
    reply.onError(Status.UNAVAILABLE.withDescription(why).asRuntimeException());
  }
}
