package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs {@link PollingLoad} against a daemon that is already serving (scripts/measure-polling.sh
 * starts one): {@code --socket PATH --pid PID [--pods 110] [--containers 500] [--warmup 30]
 * [--seconds 60] [--quiet 30] [--stats list|each]}, the durations in seconds.
 */
public final class PollingLoadMain {
  private static final Set<String> OPTIONS =
      Set.of("socket", "pid", "pods", "containers", "warmup", "seconds", "quiet", "stats");

  /**
   * The parsed command line.
   *
   * @param socket the daemon's relay socket
   * @param pid the daemon's process id
   * @param settings what to create and how long to poll
   */
  record Command(Path socket, long pid, PollingLoad.Settings settings) {}

  private PollingLoadMain() {}

  /** Parses, runs and prints the report; exits 2 with a message on a bad command line. */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Command command;
    try {
      command = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("polling load: " + e.getMessage());
      System.exit(2);
      return;
    }
    EventLoopGroup loop = EventLoops.epoll("client", 1);
    ManagedChannel channel = RuntimeChannels.channel(command.socket(), loop);
    try {
      PollingLoad.Report report =
          PollingLoad.run(
              RuntimeServiceGrpc.newBlockingStub(channel),
              command.pid(),
              command.settings(),
              out::println);
      report.lines().forEach(out::println);
    } finally {
      Shutdown.now(Duration.ofSeconds(5), Shutdown.of(channel));
      EventLoops.shutdown(loop);
    }
  }

  /**
   * The command line as a {@link Command}; messages name the option, the value and what is allowed.
   */
  static Command parse(String... args) {
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      String name = args[i].startsWith("--") ? args[i].substring(2) : "";
      if (!OPTIONS.contains(name)) {
        throw new IllegalArgumentException(
            "unknown option '" + args[i] + "', allowed: --" + String.join(", --", OPTIONS));
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(args[i] + ": needs a value");
      }
      values.put(name, args[i + 1]);
    }
    if (!values.containsKey("socket") || !values.containsKey("pid")) {
      throw new IllegalArgumentException("--socket PATH and --pid PID are required");
    }
    var settings =
        new PollingLoad.Settings(
            number(values, "pods", 110),
            number(values, "containers", 500),
            Duration.ofSeconds(number(values, "warmup", 30)),
            Duration.ofSeconds(number(values, "seconds", 60)),
            Duration.ofSeconds(number(values, "quiet", 30)),
            stats(values.getOrDefault("stats", "list")));
    return new Command(Path.of(values.get("socket")), number(values, "pid", 0), settings);
  }

  private static int number(Map<String, String> values, String name, int fallback) {
    String value = values.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--" + name + ": '" + value + "' is not allowed, must be a whole number", e);
    }
  }

  private static PollingLoad.StatsCalls stats(String value) {
    try {
      return PollingLoad.StatsCalls.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--stats: '" + value + "' is not allowed, must be list or each", e);
    }
  }
}
