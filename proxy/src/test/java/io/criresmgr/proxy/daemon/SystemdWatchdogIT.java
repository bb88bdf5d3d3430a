package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.metrics.Health;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd watchdog over a real Unix datagram socket standing in for systemd's notify socket:
 * {@code WATCHDOG=1} while {@code /livez} is well, the problem as {@code STATUS=} and no ping while
 * it is not; the environment that asks for a watchdog, and malformed values refused by name.
 */
class SystemdWatchdogIT {
  @TempDir Path dir;

  /** A stand-in for systemd's notify socket, collecting the datagrams it receives. */
  private static final class NotifySocket implements AutoCloseable {
    final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private final EventLoopGroup loop = EventLoops.epoll("fake-systemd", 1);
    private final Channel channel;

    NotifySocket(Path path) {
      this(new DomainSocketAddress(path.toString()));
    }

    NotifySocket(DomainSocketAddress address) {
      channel =
          new Bootstrap()
              .group(loop)
              .channel(EpollDomainDatagramChannel.class)
              .handler(
                  new SimpleChannelInboundHandler<DomainDatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DomainDatagramPacket p) {
                      received.add(p.content().toString(StandardCharsets.UTF_8));
                    }
                  })
              .bind(address)
              .syncUninterruptibly()
              .channel();
    }

    String next() throws InterruptedException {
      String message = received.poll(10, TimeUnit.SECONDS);
      assertTrue(message != null, "no datagram within 10 s");
      return message;
    }

    @Override
    public void close() {
      channel.close().syncUninterruptibly();
      EventLoops.shutdown(loop);
    }
  }

  @Test
  void pingsWhileAliveAndReportsWhatStopsThePings() throws Exception {
    Path socket = dir.resolve("notify");
    Health health = new Health();
    AtomicReference<Optional<String>> stuck = new AtomicReference<>(Optional.empty());
    health.register("pipeline", Health.Remedy.RESTART, stuck::get);
    health.register("nri", () -> Optional.of("not registered")); // waits: no reason to restart
    Map<String, String> env =
        Map.of("NOTIFY_SOCKET", socket.toString(), "WATCHDOG_USEC", "3600000000");
    try (NotifySocket systemd = new NotifySocket(socket);
        SystemdWatchdog dog = SystemdWatchdog.start(env, 42, health).orElseThrow()) {
      assertEquals("WATCHDOG=1", systemd.next()); // at once, then every 30 minutes here

      stuck.set(Optional.of("a pipeline step has run for 31 s"));
      assertTrue(dog.beat().await(10, TimeUnit.SECONDS));
      assertEquals("STATUS=pipeline: a pipeline step has run for 31 s", systemd.next());

      stuck.set(Optional.empty());
      assertTrue(dog.beat().await(10, TimeUnit.SECONDS));
      assertEquals("STATUS=\nWATCHDOG=1", systemd.next());
      assertTrue(dog.beat().await(10, TimeUnit.SECONDS));
      assertEquals("WATCHDOG=1", systemd.next());
      assertNull(systemd.received.poll(), "one datagram per ping");
    }
  }

  @Test
  void aNotifySocketInTheAbstractNamespaceIsReached() throws Exception {
    String name = "cri-resmgr-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    Map<String, String> env = Map.of("NOTIFY_SOCKET", "@" + name, "WATCHDOG_USEC", "3600000000");
    try (NotifySocket systemd = new NotifySocket(new DomainSocketAddress("\0" + name));
        SystemdWatchdog dog = SystemdWatchdog.start(env, 42, new Health()).orElseThrow()) {
      assertEquals("WATCHDOG=1", systemd.next()); // the first ping, at once
      assertTrue(dog.beat().await(10, TimeUnit.SECONDS));
      assertEquals("WATCHDOG=1", systemd.next());
    }
  }

  @Test
  void theEnvironmentDecidesWhetherThereIsAWatchdog() {
    Map<String, String> env =
        Map.of("NOTIFY_SOCKET", "/run/systemd/notify", "WATCHDOG_USEC", "60000000");
    assertEquals(Optional.of(Duration.ofSeconds(30)), SystemdWatchdog.period(env, 42));
    assertEquals(
        Optional.of(Duration.ofSeconds(30)),
        SystemdWatchdog.period(
            Map.of(
                "NOTIFY_SOCKET", "@/org/freedesktop/systemd1/notify",
                "WATCHDOG_USEC", "60000000",
                "WATCHDOG_PID", "42"),
            42));
    assertEquals(Optional.empty(), SystemdWatchdog.period(Map.of(), 42));
    assertEquals(
        Optional.empty(),
        SystemdWatchdog.period(Map.of("NOTIFY_SOCKET", "/run/systemd/notify"), 42),
        "Type=notify without WatchdogSec");
    assertEquals(
        Optional.empty(),
        SystemdWatchdog.period(
            Map.of(
                "NOTIFY_SOCKET", "/run/systemd/notify",
                "WATCHDOG_USEC", "60000000",
                "WATCHDOG_PID", "7"),
            42),
        "meant for another process");
    assertEquals(
        "\0/org/freedesktop/systemd1/notify",
        SystemdWatchdog.address("@/org/freedesktop/systemd1/notify").path());
  }

  @Test
  void malformedValuesAreRefusedByName() {
    ConfigException usec =
        assertThrows(
            ConfigException.class,
            () ->
                SystemdWatchdog.period(
                    Map.of("NOTIFY_SOCKET", "/run/systemd/notify", "WATCHDOG_USEC", "60s"), 42));
    assertEquals(
        "WATCHDOG_USEC: \"60s\" is not a positive number of microseconds", usec.getMessage());
    ConfigException missing =
        assertThrows(
            ConfigException.class,
            () ->
                SystemdWatchdog.start(
                    Map.of(
                        "NOTIFY_SOCKET", dir.resolve("gone").toString(), "WATCHDOG_USEC", "1000"),
                    42,
                    new Health()));
    assertTrue(
        missing
            .getMessage()
            .startsWith("NOTIFY_SOCKET: cannot connect to \"" + dir.resolve("gone") + "\": "),
        missing.getMessage());
    ConfigException socket =
        assertThrows(ConfigException.class, () -> SystemdWatchdog.address("notify"));
    assertEquals(
        "NOTIFY_SOCKET: \"notify\" is neither an absolute path nor @name (a socket in the abstract"
            + " namespace)",
        socket.getMessage());
  }
}
