package io.criresmgr.proxy.relay;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a channel to the runtime reconnecting quickly after the runtime restarts.
 *
 * <p>gRPC backs off exponentially up to two minutes between connection attempts; a node whose
 * runtime came back must not wait that long. While the channel is in TRANSIENT_FAILURE this resets
 * the backoff every {@code period}, so calls succeed again within about one period of the runtime's
 * return, and fail fast with UNAVAILABLE while it is down.
 */
final class ReconnectWatcher {
  private static final Logger LOG = LoggerFactory.getLogger(ReconnectWatcher.class);

  private final ManagedChannel channel;
  private final String name;
  private final ScheduledExecutorService scheduler;
  private final long periodMillis;
  private ConnectivityState last = ConnectivityState.IDLE;

  ReconnectWatcher(
      ManagedChannel channel, String name, ScheduledExecutorService scheduler, Duration period) {
    this.channel = channel;
    this.name = name;
    this.scheduler = scheduler;
    this.periodMillis = period.toMillis();
  }

  /** Starts watching; runs until the channel shuts down. */
  void start() {
    watch();
  }

  private void watch() {
    ConnectivityState state = channel.getState(false);
    logTransition(state);
    switch (state) {
      case SHUTDOWN -> {}
      case TRANSIENT_FAILURE -> {
        var unused = scheduler.schedule(this::retry, periodMillis, TimeUnit.MILLISECONDS);
      }
      default -> channel.notifyWhenStateChanged(state, this::watch);
    }
  }

  private void retry() {
    channel.resetConnectBackoff();
    watch();
  }

  private void logTransition(ConnectivityState state) {
    if (state == ConnectivityState.TRANSIENT_FAILURE && last != state) {
      LOG.warn("lost connection to the {} socket, reconnecting", name);
    } else if (state == ConnectivityState.READY && last == ConnectivityState.TRANSIENT_FAILURE) {
      LOG.info("reconnected to the {} socket", name);
    }
    if (state != ConnectivityState.CONNECTING) {
      last = state;
    }
  }
}
