package io.criresmgr.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection that overruns its current phase: a request must arrive completely within
 * {@link HttpLimits#requestTimeout} (from the connection's start or the request's first byte), its
 * response must be written within {@link HttpLimits#responseTimeout}, and a kept-alive connection
 * may idle for {@link HttpLimits#idleTimeout}. Unlike Netty's {@code ReadTimeoutHandler}, which
 * resets on every byte, this bounds the whole request, so a client trickling one byte at a time
 * (slowloris) is dropped just the same. It sits before the HTTP codec, where it sees raw bytes;
 * every method runs on the connection's event loop.
 */
final class ConnectionDeadline extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionDeadline.class);

  private enum Phase {
    REQUEST,
    RESPONSE,
    IDLE
  }

  private final HttpLimits limits;
  private @Nullable ChannelHandlerContext ctx;
  private Phase phase = Phase.REQUEST;
  private @Nullable ScheduledFuture<?> timer;

  ConnectionDeadline(HttpLimits limits) {
    this.limits = limits;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    this.ctx = ctx;
    enter(Phase.REQUEST);
    super.channelActive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (phase == Phase.IDLE && msg instanceof ByteBuf) {
      enter(Phase.REQUEST);
    }
    super.channelRead(ctx, msg);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    cancel();
    super.channelInactive(ctx);
  }

  /** The request arrived completely: the response's deadline starts. */
  void requestReceived() {
    enter(Phase.RESPONSE);
  }

  /** The response was written and the connection stays open: the idle timeout starts. */
  void responseSent() {
    enter(Phase.IDLE);
  }

  private void enter(Phase next) {
    cancel();
    phase = next;
    ChannelHandlerContext c = ctx;
    if (c != null) {
      Duration limit = limit(next);
      timer =
          c.executor()
              .schedule(() -> expire(c, next, limit), limit.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private Duration limit(Phase p) {
    return switch (p) {
      case REQUEST -> limits.requestTimeout();
      case RESPONSE -> limits.responseTimeout();
      case IDLE -> limits.idleTimeout();
    };
  }

  private static void expire(ChannelHandlerContext ctx, Phase phase, Duration limit) {
    LOG.debug(
        "closing the connection from {}: {} not done within {}",
        ctx.channel().remoteAddress(),
        phase.name().toLowerCase(java.util.Locale.ROOT),
        limit);
    var unused = ctx.close();
  }

  private void cancel() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }
}
