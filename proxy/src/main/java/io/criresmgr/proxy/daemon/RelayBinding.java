package io.criresmgr.proxy.daemon;

import io.criresmgr.proxy.relay.RelayException;
import io.criresmgr.proxy.relay.RelayServer;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the relay socket and keeps it served: a socket file that disappears (an operator's {@code
 * rm}, a cleanup script, a tmpfs remount) leaves a listening server nobody can reach, and kubelet
 * gets "no such file" until a restart. A missing socket is bound again at once (calls in flight on
 * the old one finish); a path taken by another file, or a rebinding that fails, is fatal, so the
 * service manager restarts the daemon.
 *
 * <p>The binding learns of a removal from the kernel (inotify on the socket's directory, through
 * {@link WatchService}), so an idle daemon does not wake up to look: each periodic check cost a
 * thread wake-up and a stat call, the largest part of an idle daemon's CPU (docs/benchmarks.md,
 * "Issue 20: idle wake-ups"). It still checks every {@code backstop}, for what sends no event (a
 * file system mounted over the directory), and every {@code fallback} while the directory cannot be
 * watched (it is gone, or the kernel's inotify limits are reached).
 */
final class RelayBinding implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelayBinding.class);

  /** Opens a watch service; an {@link IOException} means the socket is checked periodically. */
  @FunctionalInterface
  interface Watches {
    /** A new watch service. */
    WatchService open() throws IOException;

    /** The platform's (inotify on Linux). */
    Watches DEFAULT = () -> FileSystems.getDefault().newWatchService();
  }

  private final Path socket;
  private final Path directory;
  private final Supplier<RelayServer> bind;
  private final Consumer<String> fatal;
  private final long backstopMillis;
  private final long fallbackMillis;
  private final @Nullable WatchService watcher;
  private final Thread thread;
  private volatile @Nullable WatchKey key;
  private RelayServer server;
  private @Nullable Object fileKey;
  private volatile boolean closed;
  private volatile @Nullable String problem;

  private RelayBinding(
      Path socket,
      Supplier<RelayServer> bind,
      Consumer<String> fatal,
      Duration backstop,
      Duration fallback,
      Watches watches) {
    this.socket = socket;
    this.directory =
        Objects.requireNonNull(socket.toAbsolutePath().getParent(), "the socket's directory");
    this.bind = bind;
    this.fatal = fatal;
    this.backstopMillis = positive(backstop, "backstop");
    this.fallbackMillis = positive(fallback, "fallback");
    this.server = bind.get();
    this.fileKey = fileKey().orElse(null);
    this.watcher = open(watches, directory);
    this.thread = new Thread(this::watch, "relay-socket-watch");
    thread.setDaemon(true);
  }

  /**
   * Binds {@code socket} with {@code bind} (which also sets its permissions) and watches it: at
   * once when the kernel reports a change in its directory, else every {@code backstop}, or every
   * {@code fallback} while the directory cannot be watched; {@code fatal} gets the reason when it
   * cannot be served any more.
   */
  static RelayBinding serve(
      Path socket,
      Supplier<RelayServer> bind,
      Duration backstop,
      Duration fallback,
      Consumer<String> fatal) {
    return serve(socket, bind, backstop, fallback, fatal, Watches.DEFAULT);
  }

  /** As above, with the watch services {@code watches} opens (tests: one that fails). */
  static RelayBinding serve(
      Path socket,
      Supplier<RelayServer> bind,
      Duration backstop,
      Duration fallback,
      Consumer<String> fatal,
      Watches watches) {
    RelayBinding binding =
        new RelayBinding(
            Objects.requireNonNull(socket, "socket"),
            Objects.requireNonNull(bind, "bind"),
            Objects.requireNonNull(fatal, "fatal"),
            backstop,
            fallback,
            Objects.requireNonNull(watches, "watches"));
    binding.thread.start();
    return binding;
  }

  private static long positive(Duration period, String name) {
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException(name + ": must be positive, got " + period);
    }
    return period.toMillis();
  }

  private static @Nullable WatchService open(Watches watches, Path directory) {
    try {
      return watches.open();
    } catch (IOException | UnsupportedOperationException e) {
      LOG.warn(
          "cannot watch {} for changes ({}); checking the relay socket periodically instead",
          directory,
          e.getMessage());
      return null;
    }
  }

  /** The relay socket's problem for {@code /healthz}, or empty while it is served. */
  Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** Whether the socket's directory is watched (tests). */
  boolean watched() {
    WatchKey k = key;
    return k != null && k.isValid();
  }

  /**
   * The watch thread: (re-)registers the directory, checks the socket, and waits for an event or
   * the next periodic check. Checking after each registration leaves no gap for a removal to slip
   * through unseen.
   */
  private void watch() {
    while (!closed) {
      boolean watched = register();
      checkLogged();
      try {
        awaitChange(watched ? backstopMillis : fallbackMillis);
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return; // closed
      }
    }
  }

  /** Registers the socket's directory unless it is watched already; whether it is watched now. */
  private boolean register() {
    WatchService w = watcher;
    if (w == null) {
      return false;
    }
    WatchKey k = key;
    if (k != null && k.isValid()) {
      return true;
    }
    try {
      key =
          directory.register(
              w, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE);
      return true;
    } catch (NoSuchFileException e) {
      return false; // the check binds the socket again, which creates the directory
    } catch (IOException e) {
      LOG.debug("cannot watch {}: {}", directory, e.toString());
      return false;
    }
  }

  /** Waits up to {@code millis} for an event in the watched directory, and consumes it. */
  private void awaitChange(long millis) throws InterruptedException {
    WatchService w = watcher;
    if (w == null || !watched()) {
      Thread.sleep(millis);
      return;
    }
    WatchKey k = w.poll(millis, TimeUnit.MILLISECONDS);
    if (k != null) {
      // Which file changed does not matter: the check that follows is one stat call.
      k.pollEvents();
      if (!k.reset()) {
        key = null; // the directory is gone: registered again once it exists
      }
    }
  }

  /** A check must never end the watch thread: it reports through {@code fatal} instead. */
  private void checkLogged() {
    try {
      check();
    } catch (RuntimeException e) {
      problem = "cannot check " + socket + ": " + e;
      fatal.accept("relay socket " + socket + ": " + e);
    }
  }

  private synchronized void check() {
    if (closed) {
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
    closed = true;
    thread.interrupt();
    WatchService w = watcher;
    if (w != null) {
      try {
        w.close();
      } catch (IOException e) {
        LOG.debug("closing the watch of {}: {}", directory, e.toString());
      }
    }
    synchronized (this) {
      server.close();
    }
  }
}
