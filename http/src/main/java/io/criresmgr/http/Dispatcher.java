package io.criresmgr.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each complete request to the worker pool and writes the handler's response back on the
 * event loop. One request per connection is in progress at a time: a pipelined second request is
 * dropped and the connection closed after the first response, so responses cannot be reordered. A
 * full pool answers 503 at once.
 */
final class Dispatcher extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  private final HttpHandler handler;
  private final Executor workers;
  private final ConnectionDeadline deadline;
  private boolean busy;
  private boolean closeAfter;

  Dispatcher(HttpHandler handler, Executor workers, ConnectionDeadline deadline) {
    this.handler = handler;
    this.workers = workers;
    this.deadline = deadline;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
    if (busy) {
      closeAfter = true;
      return;
    }
    busy = true;
    deadline.requestReceived();
    Request request = request(ctx, msg);
    boolean keepAlive = HttpUtil.isKeepAlive(msg);
    try {
      workers.execute(() -> answer(ctx, request, handle(request), keepAlive));
    } catch (RejectedExecutionException e) {
      LOG.warn(
          "{} {} from {}: 503, every worker busy",
          request.method(),
          request.path(),
          request.peer());
      answer(ctx, request, Response.text(503, "busy; retry later"), false);
    }
  }

  /** Resets, TLS failures and handshake timeouts: the client's problem, closed quietly. */
  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug(
        "closing the connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
    var unused = ctx.close();
  }

  /**
   * Runs the handler; whatever it throws becomes a 500. Errors too (a page source overflowing its
   * stack): the daemon exits when any thread dies of an uncaught throwable, and an HTTP page is
   * never worth that.
   */
  private Response handle(Request request) {
    try {
      return handler.handle(request);
    } catch (Exception e) {
      LOG.warn("{} {}: {}", request.method(), request.path(), e.toString());
      return Response.text(500, String.valueOf(e.getMessage()));
    } catch (Throwable e) {
      LOG.error("{} {}: the handler failed", request.method(), request.path(), e);
      return Response.text(500, "internal error: " + e.getClass().getName());
    }
  }

  /**
   * Writes on the event loop, where {@link #busy} and the deadline live. A loop already stopped
   * (the server is closing) has closed the connection too, so there is nobody left to answer.
   */
  private void answer(
      ChannelHandlerContext ctx, Request request, Response response, boolean keepAlive) {
    try {
      ctx.executor().execute(() -> write(ctx, request, response, keepAlive));
    } catch (RejectedExecutionException e) {
      LOG.debug("{} {}: not answered, the server is closing", request.method(), request.path());
    }
  }

  /**
   * A request that arrived while this response was being written ({@link #closeAfter} set after
   * {@link Responses#send} decided) is dropped too, so the connection is closed once it is written.
   */
  private void write(
      ChannelHandlerContext ctx, Request request, Response response, boolean keepAlive) {
    boolean head = request.method().equals("HEAD");
    // The listener handles the outcome.
    var unused =
        Responses.send(ctx, response, head, !keepAlive || closeAfter)
            .addListener(
                f -> {
                  busy = false;
                  if (closeAfter) {
                    var unusedClose = ctx.close();
                  } else if (f.isSuccess() && ctx.channel().isActive()) {
                    deadline.responseSent();
                  }
                });
  }

  private static Request request(ChannelHandlerContext ctx, FullHttpRequest msg) {
    return new Request(
        msg.method().name(),
        new QueryStringDecoder(msg.uri()).path(),
        msg.headers().get(HttpHeaderNames.CONTENT_TYPE),
        ByteBufUtil.getBytes(msg.content()),
        peer(ctx));
  }

  private static @Nullable InetAddress peer(ChannelHandlerContext ctx) {
    return ctx.channel().remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
  }
}
