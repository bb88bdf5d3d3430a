package io.criresmgr.proxy.nri;

import io.criresmgr.nri.NriPlugin;
import io.criresmgr.nri.NriPluginOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the plugin connected to the runtime's NRI socket: connects and registers on a thread of its
 * own (the daemon's start never waits for the runtime), and when the runtime closes the connection
 * or cannot be reached, says so in the log and tries again after a backoff that doubles from {@link
 * #FIRST_BACKOFF} to {@link #MAX_BACKOFF}. The pipeline and cache stay; the runtime's Synchronize
 * on every connection reconciles them.
 */
final class NriConnection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NriConnection.class);

  /** The wait before the first retry. */
  static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);

  /** The longest wait between retries. */
  static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

  private final NriPluginOptions options;
  private final NriFrontEnd frontEnd;
  private final Thread thread;
  private volatile boolean closed;
  private volatile @Nullable NriPlugin current;

  private NriConnection(NriPluginOptions options, NriFrontEnd frontEnd) {
    this.options = Objects.requireNonNull(options, "options");
    this.frontEnd = Objects.requireNonNull(frontEnd, "frontEnd");
    this.thread = new Thread(this::run, "nri-connect");
    thread.setDaemon(true);
  }

  /** Starts connecting {@code frontEnd} with {@code options}. */
  static NriConnection start(NriPluginOptions options, NriFrontEnd frontEnd) {
    NriConnection c = new NriConnection(options, frontEnd);
    c.thread.start();
    return c;
  }

  private void run() {
    Duration backoff = FIRST_BACKOFF;
    while (!closed) {
      try {
        NriPlugin plugin = NriPlugin.connect(options, frontEnd);
        current = plugin;
        frontEnd.attach(plugin);
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
      if (!closed) {
        LOG.warn("the runtime closed the NRI connection; reconnecting");
      }
    } catch (ExecutionException e) {
      LOG.warn(
          "the NRI connection failed: {}; reconnecting",
          Objects.requireNonNullElse(e.getCause(), e).getMessage());
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
