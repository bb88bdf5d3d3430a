package io.criresmgr.grpc.unix;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.TimeUnit;

/** Epoll event loop groups for Unix-socket servers and channels. */
public final class EventLoops {
  private EventLoops() {}

  /**
   * A group of {@code threads} daemon epoll loops named {@code name-N}.
   *
   * @throws NativeTransportException if netty's native epoll library cannot be loaded
   */
  public static EventLoopGroup epoll(String name, int threads) {
    requireEpoll();
    return new MultiThreadIoEventLoopGroup(
        threads, new DefaultThreadFactory(name, true), EpollIoHandler.newFactory());
  }

  /**
   * Fails with a message naming the reason and where netty looked unless its native epoll library
   * is loaded: netty's own error is an {@link UnsatisfiedLinkError} without either.
   *
   * @throws NativeTransportException if the library cannot be loaded
   */
  public static void requireEpoll() {
    if (!Epoll.isAvailable()) {
      Throwable cause = Epoll.unavailabilityCause();
      throw NativeTransportException.of(
          cause == null ? new UnsatisfiedLinkError("no reason given") : cause,
          System.getProperties());
    }
  }

  /**
   * Whether netty made {@code thread}: the event loops of servers and channels, and any thread of
   * netty's thread factory (such as the HTTP server's workers). Such threads must never wait.
   */
  public static boolean madeByNetty(Thread thread) {
    return thread instanceof FastThreadLocalThread;
  }

  /** Shuts a group down quickly and waits for it (at most 5 s). */
  public static void shutdown(EventLoopGroup group) {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
