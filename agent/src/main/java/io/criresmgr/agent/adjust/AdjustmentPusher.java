package io.criresmgr.agent.adjust;

import io.criresmgr.agent.push.DaemonPusher;
import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetAdjustmentReply;
import io.criresmgr.api.config.v1.SetAdjustmentRequest;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes the node's adjustments to the daemon with {@code v1.Config.SetAdjustment} through a {@link
 * DaemonPusher} (5 s deadline, retries with the latest set while the daemon is away, pushes again
 * after it restarts), and hands each answer's errors on (for the status write-back). A gRPC error
 * other than a transport failure means the daemon could not decode the JSON: it is logged and the
 * same set is not sent again.
 */
public final class AdjustmentPusher implements Consumer<NodeAdjustments>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AdjustmentPusher.class);

  private final DaemonPusher<NodeAdjustments, SetAdjustmentRequest, SetAdjustmentReply> pusher;

  private AdjustmentPusher(
      Path socket, Duration retryDelay, BiConsumer<NodeAdjustments, Map<String, String>> replies) {
    pusher = DaemonPusher.open(socket, retryDelay, "adjustment-push", new SetAdjustment(replies));
  }

  /**
   * A pusher to the daemon's config socket {@code socket}, trying again {@code retryDelay} after a
   * transport failure, giving each answer (the set pushed, the reply's errors) to {@code replies}
   * on its thread. It connects on the first push.
   */
  public static AdjustmentPusher open(
      Path socket, Duration retryDelay, BiConsumer<NodeAdjustments, Map<String, String>> replies) {
    return new AdjustmentPusher(socket, retryDelay, Objects.requireNonNull(replies, "replies"));
  }

  /** Pushes {@code adjustments} as soon as no other push is under way; returns at once. */
  @Override
  public void accept(NodeAdjustments adjustments) {
    pusher.accept(adjustments);
  }

  /** Stops pushing and closes the connection. */
  @Override
  public void close() {
    pusher.close();
  }

  private record SetAdjustment(BiConsumer<NodeAdjustments, Map<String, String>> replies)
      implements DaemonPusher.Call<NodeAdjustments, SetAdjustmentRequest, SetAdjustmentReply> {
    @Override
    public MethodDescriptor<SetAdjustmentRequest, SetAdjustmentReply> method() {
      return ConfigGrpc.getSetAdjustmentMethod();
    }

    @Override
    public SetAdjustmentRequest request(NodeAdjustments adjustments) {
      return SetAdjustmentRequest.newBuilder()
          .setNodeName(adjustments.nodeName())
          .setAdjustment(adjustments.json())
          .build();
    }

    @Override
    public void answered(NodeAdjustments adjustments, SetAdjustmentReply reply) {
      Map<String, String> errors = reply.getErrorsMap();
      if (errors.isEmpty()) {
        log.info("cri-resmgr applied {}", describe(adjustments));
      } else {
        log.warn(
            "cri-resmgr reported errors for {}: {}", describe(adjustments), new TreeMap<>(errors));
      }
      replies.accept(adjustments, errors);
    }

    @Override
    public void refused(NodeAdjustments adjustments, Status status) {
      log.error(
          "cri-resmgr refused {} ({}); not sending it again",
          describe(adjustments),
          DaemonPusher.describe(status));
    }

    @Override
    public String describe(NodeAdjustments adjustments) {
      return adjustments.specs().isEmpty()
          ? "no adjustments"
          : "adjustments " + adjustments.names().stream().sorted().toList();
    }
  }
}
