package io.criresmgr.http;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslHandler;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets up each accepted connection, or closes it at once when {@link HttpLimits#maxConnections} are
 * open:
 *
 * <pre>
 *  [tls] → deadline → codec → gate → aggregator → dispatcher ─► workers ─► handler
 *  (handshake   (whole      (line 4 KiB,  (405, 413,  (body ≤ maxBody,
 *   timeout)     request)    headers 8 KiB) budget)     413 if chunked over)
 * </pre>
 */
final class ConnectionInitializer extends ChannelInitializer<SocketChannel> {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionInitializer.class);
  static final int MAX_LINE = 4096;
  static final int MAX_HEADERS = 8192;

  private final HttpLimits limits;
  private final @Nullable SSLContext tls;
  private final HttpHandler handler;
  private final Set<String> methods;
  private final Executor workers;
  private final BodyBudget budget;
  private final AtomicInteger open = new AtomicInteger();

  ConnectionInitializer(
      HttpLimits limits, @Nullable SSLContext tls, HttpHandler handler, Executor workers) {
    this.limits = limits;
    this.tls = tls;
    this.handler = handler;
    this.methods = Set.copyOf(handler.methods());
    this.workers = workers;
    this.budget = new BodyBudget(limits.bodyBudget());
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    if (open.incrementAndGet() > limits.maxConnections()) {
      open.decrementAndGet();
      LOG.debug("refusing {}: {} connections open", ch.remoteAddress(), limits.maxConnections());
      var unused = ch.close();
      return;
    }
    ch.closeFuture().addListener(f -> open.decrementAndGet());
    ChannelPipeline p = ch.pipeline();
    if (tls != null) {
      p.addLast("tls", tls(tls));
    }
    ConnectionDeadline deadline = new ConnectionDeadline(limits);
    p.addLast("deadline", deadline);
    p.addLast("codec", new HttpServerCodec(decoderConfig()));
    p.addLast("gate", new RequestGate(methods, limits.maxBody(), budget));
    p.addLast("aggregator", new HttpObjectAggregator(limits.maxBody(), true));
    p.addLast("dispatcher", new Dispatcher(handler, workers, deadline));
  }

  private SslHandler tls(SSLContext context) {
    SSLEngine engine = context.createSSLEngine();
    engine.setUseClientMode(false);
    SslHandler ssl = new SslHandler(engine);
    ssl.setHandshakeTimeoutMillis(limits.requestTimeout().toMillis());
    return ssl;
  }

  private static HttpDecoderConfig decoderConfig() {
    return new HttpDecoderConfig().setMaxInitialLineLength(MAX_LINE).setMaxHeaderSize(MAX_HEADERS);
  }
}
