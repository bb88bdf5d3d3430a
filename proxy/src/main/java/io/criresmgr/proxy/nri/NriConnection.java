package io.criresmgr.proxy.nri;

import io.criresmgr.nri.NriPlugin;
import io.criresmgr.nri.NriPluginOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the plugin connected to the runtime's NRI socket: connects and registers on a thread of its
 * own (the daemon's start never waits for the runtime), and when the runtime closes the connection
 * or cannot be reached, says so in the log and tries again after a backoff that doubles from {@link
 * #FIRST_BACKOFF} to {@link #MAX_BACKOFF}. The pipeline and cache stay; the runtime's Synchronize
 * on every connection reconciles them. While not registered, {@link #problem()} says since when and
 * why, for {@code /healthz}.
 */
final class NriConnection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NriConnection.class);

  /** The wait before the first retry. */
  static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);

  /** The longest wait between retries. */
  static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

  private final NriPluginOptions options;
  private final NriFrontEnd frontEnd;
  private final LongSupplier nanoClock;
  private final Thread thread;
  private volatile boolean closed;
  private volatile @Nullable NriPlugin current;
  private volatile State state;

  /**
   * Registered or not, and if not: since when ({@code nanoClock}), after what ({@code since}) and
   * the last error connecting, if any.
   */
  private record State(boolean registered, long at, String since, @Nullable String lastError) {
    State failed(String error) {
      return new State(false, at, since, error);
    }
  }

  private NriConnection(NriPluginOptions options, NriFrontEnd frontEnd, LongSupplier nanoClock) {
    this.options = Objects.requireNonNull(options, "options");
    this.frontEnd = Objects.requireNonNull(frontEnd, "frontEnd");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.state = new State(false, nanoClock.getAsLong(), "since the start", null);
    this.thread = new Thread(this::run, "nri-connect");
    thread.setDaemon(true);
  }

  /** Starts connecting {@code frontEnd} with {@code options}; {@code nanoClock} times health. */
  static NriConnection start(
      NriPluginOptions options, NriFrontEnd frontEnd, LongSupplier nanoClock) {
    NriConnection c = new NriConnection(options, frontEnd, nanoClock);
    c.thread.start();
    return c;
  }

  /**
   * For {@code /healthz}: while the plugin is not registered with the runtime, for how long, since
   * what, and the last error connecting. The runtime then creates containers without the plugin
   * (docs/nri.md); the connection retries by itself, so a restart would not help.
   */
  Optional<String> problem() {
    State s = state;
    if (s.registered()) {
      return Optional.empty();
    }
    long seconds = Math.max(0, nanoClock.getAsLong() - s.at()) / 1_000_000_000L;
    String text =
        "not registered with the runtime on "
            + options.socket()
            + " for "
            + seconds
            + " s, "
            + s.since()
            + (s.lastError() == null ? "" : "; last error: " + s.lastError());
    return Optional.of(text);
  }

  private void unregistered(String since) {
    state = new State(false, nanoClock.getAsLong(), since, null);
  }

  private void run() {
    Duration backoff = FIRST_BACKOFF;
    while (!closed) {
      try {
        NriPlugin plugin = NriPlugin.connect(options, frontEnd);
        current = plugin;
        frontEnd.attach(plugin);
        state = new State(true, nanoClock.getAsLong(), "", null);
        LOG.info(
            "registered as NRI plugin {}-{} on {}",
            options.index(),
            options.name(),
            options.socket());
        backoff = FIRST_BACKOFF;
        awaitClose(plugin);
        frontEnd.detach(plugin);
        plugin.close();
      } catch (RuntimeException e) {
        if (closed) {
          return;
        }
        state = state.failed(String.valueOf(e.getMessage())); // never registered here
        LOG.warn(
            "cannot connect to the runtime's NRI socket {}: {}; trying again in {} s",
            options.socket(),
            e.getMessage(),
            backoff.toSeconds());
      }
      if (!sleep(backoff)) {
        return;
      }
      backoff =
          backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
              ? MAX_BACKOFF
              : backoff.multipliedBy(2);
    }
  }

  private void awaitClose(NriPlugin plugin) {
    try {
      plugin.closed().get();
      unregistered("since the runtime closed the connection");
      if (!closed) {
        LOG.warn("the runtime closed the NRI connection; reconnecting");
      }
    } catch (ExecutionException e) {
      String why = Objects.requireNonNullElse(e.getCause(), e).getMessage();
      unregistered("since the connection failed: " + why);
      LOG.warn("the NRI connection failed: {}; reconnecting", why);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private boolean sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
      return !closed;
    } catch (InterruptedException e) {
      return false;
    }
  }

  /** Disconnects and stops trying. */
  @Override
  public void close() {
    closed = true;
    NriPlugin plugin = current;
    if (plugin != null) {
      plugin.close();
    }
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
