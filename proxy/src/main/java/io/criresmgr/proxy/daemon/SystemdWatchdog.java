package io.criresmgr.proxy.daemon;

import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.metrics.Health;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * systemd's service watchdog ({@code WatchdogSec=} in
 * packaging/systemd/cri-resource-manager-nri.service; docs/nri.md, "A hung daemon"): every half of
 * {@code $WATCHDOG_USEC}, sends {@code WATCHDOG=1} to {@code $NOTIFY_SOCKET} while {@code /livez}
 * has nothing to report, else the problem as {@code STATUS=} (shown by {@code systemctl status})
 * and no {@code WATCHDOG=1}. A daemon that hangs (stopped, deadlocked) or whose pipeline is stuck
 * thus stops the pings, and systemd restarts it once {@code WatchdogSec} passes without one.
 *
 * <p>The notification protocol is one Unix <em>datagram</em> per message, which the JDK cannot send
 * (its Unix sockets are streams only), so this uses netty's epoll domain datagram channel on an
 * event loop of its own, which also times the pings. Without {@code $NOTIFY_SOCKET} and {@code
 * $WATCHDOG_USEC}, or with a {@code $WATCHDOG_PID} of another process, there is no watchdog and
 * nothing is sent.
 */
final class SystemdWatchdog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SystemdWatchdog.class);

  private final Health health;
  private final DomainSocketAddress target;
  private final EventLoopGroup loop;
  private final Channel channel;
  private volatile boolean sick; // set by beat(): on the event loop (and by tests)
  private volatile boolean failing; // the last send failed; set by the listener on the event loop

  private SystemdWatchdog(Health health, DomainSocketAddress target) {
    this.health = Objects.requireNonNull(health, "health");
    this.target = target;
    this.loop = EventLoops.epoll("systemd-watchdog", 1);
    // Connected (systemd keeps its notification socket for its lifetime, across reexecution):
    // netty sends only on an active channel, and an unconnected datagram channel is not one.
    ChannelFuture connected =
        new Bootstrap()
            .group(loop)
            .channel(EpollDomainDatagramChannel.class)
            .handler(new ChannelInboundHandlerAdapter())
            .connect(target)
            .awaitUninterruptibly();
    if (!connected.isSuccess()) {
      EventLoops.shutdown(loop);
      throw new ConfigException(
          "NOTIFY_SOCKET: cannot connect to \""
              + target.path().replace('\0', '@')
              + "\": "
              + connected.cause().getMessage(),
          connected.cause());
    }
    this.channel = connected.channel();
  }

  /**
   * The watchdog {@code env} (the process's environment) asks for, pinging every half of {@code
   * $WATCHDOG_USEC} from now while {@code health} has no {@link Health.Remedy#RESTART} problem;
   * empty if systemd asks for none (for process {@code pid}).
   *
   * @throws ConfigException if {@code $WATCHDOG_USEC} or {@code $NOTIFY_SOCKET} is malformed
   */
  static Optional<SystemdWatchdog> start(Map<String, String> env, long pid, Health health) {
    Optional<Duration> period = period(env, pid);
    if (period.isEmpty()) {
      return Optional.empty();
    }
    SystemdWatchdog dog =
        new SystemdWatchdog(health, address(env.getOrDefault("NOTIFY_SOCKET", "")));
    long nanos = period.get().toNanos();
    var unused = dog.loop.scheduleAtFixedRate(dog::ping, 0, nanos, TimeUnit.NANOSECONDS);
    LOG.info(
        "telling systemd's watchdog every {} ms that the daemon is alive", period.get().toMillis());
    return Optional.of(dog);
  }

  /** Half of {@code $WATCHDOG_USEC}, if a watchdog is asked for this process. */
  static Optional<Duration> period(Map<String, String> env, long pid) {
    String socket = env.getOrDefault("NOTIFY_SOCKET", "");
    String usec = env.getOrDefault("WATCHDOG_USEC", "");
    String forPid = env.getOrDefault("WATCHDOG_PID", "");
    if (socket.isEmpty() || usec.isEmpty()) {
      return Optional.empty();
    }
    if (!(forPid.isEmpty() || forPid.equals("" + pid))) {
      // systemd watches another process (a wrapper that does not exec java): it will not hear
      // from this one, and restarts the service when its WatchdogSec passes.
      LOG.warn(
          "systemd's watchdog (WATCHDOG_USEC={}) is for process {}, not this one ({}): not pinging"
              + " it; start the daemon with exec so that it is the service's main process",
          usec,
          forPid,
          pid);
      return Optional.empty();
    }
    long micros;
    try {
      micros = Long.parseLong(usec);
    } catch (NumberFormatException e) {
      micros = 0;
    }
    if (micros < 2) {
      throw new ConfigException(
          "WATCHDOG_USEC: \"" + usec + "\" is not a positive number of microseconds");
    }
    return Optional.of(Duration.ofNanos(micros * 500));
  }

  /** {@code $NOTIFY_SOCKET}: an absolute path, or {@code @name} in the abstract namespace. */
  static DomainSocketAddress address(String socket) {
    if (socket.startsWith("/")) {
      return new DomainSocketAddress(socket);
    }
    if (socket.startsWith("@") && socket.length() > 1) {
      return new DomainSocketAddress("\0" + socket.substring(1));
    }
    throw new ConfigException(
        "NOTIFY_SOCKET: \""
            + socket
            + "\" is neither an absolute path nor @name (a socket in the abstract namespace)");
  }

  /** {@link #beat}, whose failure the send's listener logs. */
  private void ping() {
    // An exception would cancel the schedule silently, and systemd would restart a healthy daemon
    // with nothing in its log: logged, and the next ping is tried.
    try {
      var unused = beat();
    } catch (RuntimeException e) {
      LOG.error("cannot ping systemd's watchdog; trying again in the next period", e);
    }
  }

  /**
   * One ping: {@code WATCHDOG=1} while well, else {@code STATUS=} with the problems. Logs once when
   * the daemon stops and starts being alive.
   */
  ChannelFuture beat() {
    List<String> problems = health.problems(Health.Remedy.RESTART);
    if (problems.isEmpty()) {
      if (sick) {
        sick = false;
        LOG.info("alive again; telling systemd's watchdog so again");
        return send("STATUS=\nWATCHDOG=1");
      }
      return send("WATCHDOG=1");
    }
    String status = String.join("; ", problems);
    if (!sick) {
      sick = true;
      LOG.error(
          "no longer telling systemd's watchdog that the daemon is alive, so that systemd restarts"
              + " it: {}",
          status);
    }
    return send("STATUS=" + status);
  }

  private ChannelFuture send(String message) {
    return channel
        .writeAndFlush(Unpooled.copiedBuffer(message, StandardCharsets.UTF_8))
        .addListener(
            f -> {
              if (f.isSuccess() == failing) { // log changes only, not every ping
                failing = !f.isSuccess();
                if (failing) {
                  LOG.warn("cannot notify systemd on {}: {}", target.path(), f.cause().toString());
                } else {
                  LOG.info("notifying systemd on {} again", target.path());
                }
              }
            });
  }

  @Override
  public void close() {
    channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    EventLoops.shutdown(loop);
  }
}
