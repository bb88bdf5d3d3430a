package io.criresmgr.proxy.configserver;

import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetAdjustmentReply;
import io.criresmgr.api.config.v1.SetAdjustmentRequest;
import io.criresmgr.api.config.v1.SetConfigReply;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Objects;

/**
 * The {@code v1.Config} service: {@code SetConfig} applies the agent's configuration and answers
 * the rejection reason in {@code error} (empty: accepted), as cri-resmgr does. {@code
 * SetAdjustment} is not supported yet and fails with {@code UNIMPLEMENTED}.
 */
public final class ConfigService extends ConfigGrpc.ConfigImplBase {
  /** The status description of {@code SetAdjustment}. */
  public static final String NO_ADJUSTMENTS = "adjustments are not supported yet";

  private final AgentConfigUpdater updater;

  /** Applies configurations through {@code updater}. */
  public ConfigService(AgentConfigUpdater updater) {
    this.updater = Objects.requireNonNull(updater, "updater");
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
    reply.onError(Status.UNIMPLEMENTED.withDescription(NO_ADJUSTMENTS).asRuntimeException());
  }
}
