package io.criresmgr.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Map;

/** Writes a {@link Response} as HTTP/1.1. */
final class Responses {
  private Responses() {}

  /**
   * Writes {@code response} (headers only for {@code HEAD}); closes the connection afterwards if
   * {@code close}, or if the status is 400 or more. Returns the write's future.
   */
  static ChannelFuture send(
      ChannelHandlerContext ctx, Response response, boolean head, boolean close) {
    boolean closing = close || response.status() >= 400;
    FullHttpResponse out = netty(response, head);
    if (closing) {
      out.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    ChannelFuture written = ctx.writeAndFlush(out);
    if (closing) {
      written.addListener(ChannelFutureListener.CLOSE);
    }
    return written;
  }

  private static FullHttpResponse netty(Response response, boolean head) {
    byte[] body = response.body();
    FullHttpResponse out =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(response.status()),
            head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
    out.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
    out.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
    for (Map.Entry<String, String> h : response.headers().entrySet()) {
      out.headers().set(h.getKey(), h.getValue());
    }
    return out;
  }
}
