package io.criresmgr.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP/1.1 server (HTTPS when given an {@link SSLContext}) within {@link HttpLimits}: one event
 * loop thread {@code <name>-io} reads and writes every connection without blocking, and {@code
 * limits.threads()} workers {@code <name>-N} run the handler. Netty rather than the JDK's {@code
 * HttpServer}: the JDK server parses request headers (and does the TLS handshake) on its worker
 * threads with blocking reads, so each slow client holds a worker; its only time limits are global
 * system properties ({@code sun.net.httpserver.maxReqTime}) read once per JVM. Here a slow client
 * costs only a connection slot until its deadline, and every bound is per server and testable.
 */
public final class BoundedHttpServer implements AutoCloseable {
  private final EventLoopGroup loop;
  private final ThreadPoolExecutor workers;
  private final Channel channel;
  private final AtomicBoolean closed = new AtomicBoolean();

  private BoundedHttpServer(EventLoopGroup loop, ThreadPoolExecutor workers, Channel channel) {
    this.loop = loop;
    this.workers = workers;
    this.channel = channel;
  }

  /**
   * Binds {@code address} (port 0 picks a free one) and serves {@code handler}.
   *
   * @throws IOException if the address cannot be bound, with the operating system's reason
   */
  public static BoundedHttpServer start(
      String name,
      InetSocketAddress address,
      HttpLimits limits,
      @Nullable SSLContext tls,
      HttpHandler handler)
      throws IOException {
    EventLoopGroup loop =
        new MultiThreadIoEventLoopGroup(
            1, new DefaultThreadFactory(name + "-io", true), NioIoHandler.newFactory());
    ThreadPoolExecutor workers = workers(name, limits);
    ChannelFuture bound =
        new ServerBootstrap()
            .group(loop)
            .channel(NioServerSocketChannel.class)
            .childHandler(new ConnectionInitializer(limits, tls, handler, workers))
            .bind(address)
            .awaitUninterruptibly();
    if (!bound.isSuccess()) {
      shutdown(loop, workers);
      throw asIo(bound.cause());
    }
    return new BoundedHttpServer(loop, workers, bound.channel());
  }

  private static ThreadPoolExecutor workers(String name, HttpLimits limits) {
    return new ThreadPoolExecutor(
        limits.threads(),
        limits.threads(),
        0,
        TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(limits.queue()),
        new DefaultThreadFactory(name, true));
  }

  private static IOException asIo(Throwable cause) {
    return cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
  }

  /** The bound address. */
  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  /** The bound port. */
  public int port() {
    return address().getPort();
  }

  /** Stops listening, closes every connection and stops the threads; idempotent. */
  @Override
  public void close() {
    if (!closed.getAndSet(true)) {
      channel.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
      shutdown(loop, workers);
    }
  }

  private static void shutdown(EventLoopGroup loop, ThreadPoolExecutor workers) {
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    workers.shutdownNow();
  }
}
