package io.criresmgr.proxy.configserver;

import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetAdjustmentReply;
import io.criresmgr.api.config.v1.SetAdjustmentRequest;
import io.criresmgr.api.config.v1.SetConfigReply;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.criresmgr.cache.adjustment.AdjustmentException;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code v1.Config} service: {@code SetConfig} applies the agent's configuration and answers
 * the rejection reason in {@code error} (empty: accepted), as cri-resmgr does; {@code
 * SetAdjustment} puts the agent's adjustments in force and answers the errors by container id (or
 * {@code request}), failing with {@code INVALID_ARGUMENT} only when the JSON cannot be decoded.
 */
public final class ConfigService extends ConfigGrpc.ConfigImplBase {
  private final AgentConfigUpdater updater;
  private final AdjustmentUpdater adjustments;

  /** Applies configurations through {@code updater} and adjustments through {@code adjustments}. */
  public ConfigService(AgentConfigUpdater updater, AdjustmentUpdater adjustments) {
    this.updater = Objects.requireNonNull(updater, "updater");
    this.adjustments = Objects.requireNonNull(adjustments, "adjustments");
  }

  @Override
  public void setConfig(SetConfigRequest request, StreamObserver<SetConfigReply> reply) {
    String error = updater.apply(request.getConfigMap()).orElse("");
    reply.onNext(SetConfigReply.newBuilder().setError(error).build());
    reply.onCompleted();
  }

  @Override
  public void setAdjustment(
      SetAdjustmentRequest request, StreamObserver<SetAdjustmentReply> reply) {
    Map<String, String> errors;
    try {
      errors = adjustments.apply(request.getNodeName(), request.getAdjustment());
    } catch (AdjustmentException e) {
      reply.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    reply.onNext(SetAdjustmentReply.newBuilder().putAllErrors(errors).build());
    reply.onCompleted();
  }
}
