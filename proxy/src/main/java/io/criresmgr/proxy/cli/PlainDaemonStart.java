package io.criresmgr.proxy.cli;

import io.criresmgr.cli.Cli;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.daemon.RuntimeConnection;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.SubstituteLoggerFactory;

/**
 * Starts the daemon from a plain command line without picocli (docs/adr/0011-
 * daemon-flags-without-picocli.md): building picocli's model of the command by reflection was the
 * largest part of the start. Any command line it does not take as plain, or whose flags are
 * inconsistent, is left to picocli, which then parses and reports it as always.
 */
public final class PlainDaemonStart {
  private PlainDaemonStart() {}

  /**
   * Runs the daemon with the flags of {@code args} if they are plain ({@link
   * DaemonFlags#parsePlain}) and consistent, and returns its exit status; empty (and nothing done)
   * otherwise. A failure to start is printed to {@code err} as {@link CriResmgrCommand} prints it.
   * {@code startup} is called once the runtime's connection is begun ({@link RuntimeConnection}),
   * and only for a plain command line.
   */
  public static OptionalInt run(
      List<String> args, Supplier<DaemonStartup> startup, PrintWriter err) {
    DaemonOptions options;
    try {
      var flags = DaemonFlags.parsePlain(args);
      if (flags.isEmpty()) {
        return OptionalInt.empty();
      }
      options = flags.get().toOptions(CriResmgrCommand.NAME);
    } catch (RuntimeException e) {
      return OptionalInt.empty(); // picocli reports it, with the usage
    }
    // The runtime's connection overlaps setting up the policies and loading the configuration
    // (docs/benchmarks.md, "Start-up"); its threads log, so logging comes first.
    awaitLogging();
    Optional<RuntimeConnection> early =
        options.nri().isPresent()
            ? Optional.empty()
            : Optional.of(RuntimeConnection.begin(options));
    int status;
    try {
      DaemonStartup daemon = startup.get();
      Config config = InitialConfig.choose(options, daemon.loader());
      status = daemon.start(options, config, UnaryOperator.identity(), early);
    } catch (RuntimeException e) {
      status = Cli.reportFailure(CriResmgrCommand.NAME, e, err, ConfigException.class::isInstance);
    } finally {
      early.ifPresent(RuntimeConnection::close); // nothing once the daemon took it
    }
    err.flush();
    return OptionalInt.of(status);
  }

  /**
   * Sets up logging unless another thread (the start's warm-up) is at it, and waits for it to
   * finish: SLF4J holds back the lines logged meanwhile and replays them with a warning of its own.
   */
  private static void awaitLogging() {
    while (LoggerFactory.getILoggerFactory() instanceof SubstituteLoggerFactory) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
