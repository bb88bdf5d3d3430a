package io.criresmgr.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a request from its headers, before any of its body is read or kept: 400 for one the codec
 * could not parse, 405 for a method the handler does not serve, 413 for a declared body over {@link
 * HttpLimits#maxBody}, 503 when the {@link BodyBudget} cannot hold it. A refused request closes the
 * connection, and whatever else the client sends is dropped. A body's reservation lasts until its
 * last byte has been handed on (the dispatcher then holds a copy, bounded by the worker queue), not
 * until the next request: an idle kept-alive connection holds none of the budget.
 */
final class RequestGate extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(RequestGate.class);

  private final Set<String> methods;
  private final int maxBody;
  private final BodyBudget budget;
  private long reserved;
  private boolean refused;

  RequestGate(Set<String> methods, int maxBody, BodyBudget budget) {
    this.methods = methods;
    this.maxBody = maxBody;
    this.budget = budget;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!refused && msg instanceof HttpRequest request) {
      Response refusal = refusal(request);
      if (refusal != null) {
        refused = true;
        log(ctx, request, refusal);
        var unused = Responses.send(ctx, refusal, false, true); // closes the connection
      }
    }
    if (refused) {
      ReferenceCountUtil.release(msg);
    } else {
      boolean last = msg instanceof LastHttpContent;
      ctx.fireChannelRead(msg);
      if (last) {
        giveBack();
      }
    }
  }

  /** Limits hit (413, 503) are worth a warning; scanners' bad requests (400, 405) are not. */
  private static void log(ChannelHandlerContext ctx, HttpRequest request, Response refusal) {
    String format = "{} {} from {}: {} {}";
    Object[] args = {
      request.method(),
      request.uri(),
      ctx.channel().remoteAddress(),
      refusal.status(),
      refusal.text().strip()
    };
    if (refusal.status() >= 413) {
      LOG.warn(format, args);
    } else {
      LOG.debug(format, args);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    giveBack();
    super.channelInactive(ctx);
  }

  private @Nullable Response refusal(HttpRequest request) {
    giveBack();
    if (request.decoderResult().isFailure()) {
      return Response.text(
          400, "malformed request: " + request.decoderResult().cause().getMessage());
    }
    String method = request.method().name();
    if (!methods.contains(method)) {
      String allowed = String.join(", ", new java.util.TreeSet<>(methods));
      return Response.text(405, "method " + method + " not allowed, use " + allowed)
          .withHeader("Allow", allowed);
    }
    return sizeRefusal(request);
  }

  private @Nullable Response sizeRefusal(HttpRequest request) {
    long length = HttpUtil.getContentLength(request, -1L);
    if (length > maxBody
        || (length < 0 && maxBody == 0 && HttpUtil.isTransferEncodingChunked(request))) {
      return Response.text(413, "the body is larger than " + maxBody + " bytes");
    }
    long wanted = length >= 0 ? length : HttpUtil.isTransferEncodingChunked(request) ? maxBody : 0;
    if (!budget.tryReserve(wanted)) {
      return Response.text(503, "too many request bodies being received; retry later");
    }
    reserved = wanted;
    return null;
  }

  private void giveBack() {
    budget.release(reserved);
    reserved = 0;
  }
}
