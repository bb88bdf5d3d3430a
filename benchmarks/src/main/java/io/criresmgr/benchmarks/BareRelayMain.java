package io.criresmgr.benchmarks;

import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.relay.RelayHandlerRegistry;
import io.criresmgr.proxy.relay.RelayListener;
import io.criresmgr.proxy.relay.RelayServer;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.util.List;

/**
 * The floor of the polled daemon (docs/benchmarks.md, "Issue 20: the polled relay"): the daemon's
 * raw relay alone as a process, every call relayed as bytes, nothing intercepted or observed, on
 * the daemon's loops and channel settings: {@code RELAY-SOCKET RUNTIME-SOCKET}. Runs until killed;
 * scripts/measure-polling.sh starts it with {@code RELAY=bare}.
 */
public final class BareRelayMain {
  private BareRelayMain() {}

  /** Serves {@code args[0]}, relaying to {@code args[1]}; exits 2 on a bad command line. */
  public static void main(String[] args) throws InterruptedException {
    if (args.length != 2) {
      System.err.println("bare relay: usage: RELAY-SOCKET RUNTIME-SOCKET");
      System.exit(2);
    }
    EventLoopGroup workers = EventLoops.epoll("relay-io", 1); // also accepts, as the daemon's
    ManagedChannel runtime = RuntimeChannels.channel(Path.of(args[1]), workers);
    RelayHandlerRegistry registry = new RelayHandlerRegistry(runtime, runtime, RelayListener.NONE);
    RelayServer server = RelayServer.start(Path.of(args[0]), workers, workers, registry, List.of());
    try {
      Thread.currentThread().join();
    } finally {
      server.close();
    }
  }
}
