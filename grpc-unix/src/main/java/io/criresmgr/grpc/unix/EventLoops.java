package io.criresmgr.grpc.unix;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/** Epoll event loop groups for Unix-socket servers and channels. */
public final class EventLoops {
  private EventLoops() {}

  /** A group of {@code threads} daemon epoll loops named {@code name-N}. */
  public static EventLoopGroup epoll(String name, int threads) {
    return new MultiThreadIoEventLoopGroup(
        threads, new DefaultThreadFactory(name, true), EpollIoHandler.newFactory());
  }

  /** Shuts a group down quickly and waits for it (at most 5 s). */
  public static void shutdown(EventLoopGroup group) {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
