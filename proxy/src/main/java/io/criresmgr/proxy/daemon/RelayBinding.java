package io.criresmgr.proxy.daemon;

import io.criresmgr.proxy.relay.RelayException;
import io.criresmgr.proxy.relay.RelayServer;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the relay socket and keeps it served: a socket file that disappears (an operator's {@code
 * rm}, a cleanup script, a tmpfs remount) leaves a listening server nobody can reach, and kubelet
 * gets "no such file" until a restart. The binding checks the path every {@code period}: a missing
 * socket is bound again at once (calls in flight on the old one finish); a path taken by another
 * file, or a rebinding that fails, is fatal, so the service manager restarts the daemon.
 */
final class RelayBinding implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelayBinding.class);

  private final Path socket;
  private final Supplier<RelayServer> bind;
  private final Consumer<String> fatal;
  private final ScheduledExecutorService watch =
      Executors.newSingleThreadScheduledExecutor(
          new DefaultThreadFactory("relay-socket-watch", true));
  private RelayServer server;
  private @Nullable Object fileKey;
  private volatile @Nullable String problem;

  private RelayBinding(Path socket, Supplier<RelayServer> bind, Consumer<String> fatal) {
    this.socket = socket;
    this.bind = bind;
    this.fatal = fatal;
    this.server = bind.get();
    this.fileKey = fileKey().orElse(null);
  }

  /**
   * Binds {@code socket} with {@code bind} (which also sets its permissions) and checks it every
   * {@code period}; {@code fatal} gets the reason when it cannot be served any more.
   */
  static RelayBinding serve(
      Path socket, Supplier<RelayServer> bind, Duration period, Consumer<String> fatal) {
    RelayBinding binding =
        new RelayBinding(
            Objects.requireNonNull(socket, "socket"),
            Objects.requireNonNull(bind, "bind"),
            Objects.requireNonNull(fatal, "fatal"));
    long millis = period.toMillis();
    // checkLogged logs its own failures; close() ends it with the watch.
    var unused =
        binding.watch.scheduleWithFixedDelay(
            binding::checkLogged, millis, millis, TimeUnit.MILLISECONDS);
    return binding;
  }

  /** The relay socket's problem for {@code /healthz}, or empty while it is served. */
  Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** A periodic task must never throw: the executor would silently stop running it. */
  private void checkLogged() {
    try {
      check();
    } catch (RuntimeException e) {
      problem = "cannot check " + socket + ": " + e;
      fatal.accept("relay socket " + socket + ": " + e);
    }
  }

  private synchronized void check() {
    if (watch.isShutdown()) {
      return;
    }
    Optional<Object> now = fileKey();
    if (now.isPresent() && now.get().equals(fileKey)) {
      return;
    }
    if (now.isPresent()) {
      problem = socket + " was replaced by another file";
      fatal.accept(
          "relay socket "
              + socket
              + " was replaced by another file; refusing to remove it, exiting so that cri-resmgr"
              + " is restarted");
      return;
    }
    rebind();
  }

  private void rebind() {
    problem = socket + " was removed";
    LOG.warn("relay socket {} was removed; serving it again", socket);
    RelayServer old = server;
    try {
      server = bind.get();
    } catch (RelayException e) {
      fatal.accept("relay socket " + socket + " was removed and cannot be served again: " + e);
      return;
    }
    fileKey = fileKey().orElse(null);
    problem = null;
    LOG.info("serving CRI on {} again", socket);
    old.stop(5);
  }

  private Optional<Object> fileKey() {
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return Optional.ofNullable(attributes.fileKey());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new RelayException("cannot read " + socket + ": " + e.getMessage(), e);
    }
  }

  /** Stops watching, then stops serving (5 s grace for running calls). */
  @Override
  public void close() {
    watch.shutdownNow();
    synchronized (this) {
      server.close();
    }
  }
}
