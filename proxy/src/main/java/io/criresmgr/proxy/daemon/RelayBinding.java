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
 * file system mounted over the directory, the directory moved away: a directory that is no longer
 * the one watched is watched anew), and every {@code fallback} while the directory cannot be
 * watched (the kernel's inotify limits are reached). A directory that is gone cannot hold the
 * socket again: the rebinding fails, which is fatal.
 */
final class RelayBinding implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelayBinding.class);

  /** How long {@link #close} waits for the watch thread (a rebinding in progress). */
  private static final long JOIN_MILLIS = 5_000;

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
  private volatile @Nullable WatchService watcher; // null: checked every fallback period
  private final Thread thread;
  private volatile @Nullable WatchKey key;
  private @Nullable Object watchedDirectory; // the watched directory's file key; watch thread only
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

  /** Whether the watch thread has ended (tests). */
  boolean stopped() {
    return !thread.isAlive();
  }

  /**
   * The watch thread: (re-)registers the directory, checks the socket, and waits for an event or
   * the next periodic check. Checking after each registration leaves no gap for a removal to slip
   * through unseen.
   */
  private void watch() {
    while (!closed) {
      register();
      checkLogged();
      try {
        awaitChange();
      } catch (InterruptedException e) {
        if (closed) {
          return;
        }
        LOG.debug("relay socket watch interrupted; watching on"); // only close() ends it
      } catch (ClosedWatchServiceException e) {
        if (closed) {
          return;
        }
        LOG.warn("the watch of {} was closed; checking the relay socket periodically", directory);
        watcher = null;
      }
    }
  }

  /**
   * Registers the socket's directory unless it is watched already; a directory that is no longer
   * the one watched (moved away and made again, a link pointed elsewhere) is watched anew.
   */
  private void register() {
    WatchService w = watcher;
    if (w == null) {
      return;
    }
    Object now = directoryKey();
    WatchKey k = key;
    if (k != null && k.isValid() && now != null && now.equals(watchedDirectory)) {
      return;
    }
    if (k != null) {
      k.cancel();
      key = null;
    }
    if (now == null) {
      return; // gone: the check that follows finds the socket gone too, and cannot serve it
    }
    try {
      key =
          directory.register(
              w, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE);
      watchedDirectory = now;
    } catch (ClosedWatchServiceException e) {
      // Closing: the loop ends.
    } catch (IOException e) {
      LOG.debug("cannot watch {}: {}", directory, e.toString());
    }
  }

  /** The socket directory's file key (through links), or null if it cannot be read. */
  private @Nullable Object directoryKey() {
    try {
      return Files.readAttributes(directory, BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Waits for an event in the watched directory, and consumes it; at most the backstop period while
   * the directory is watched, the fallback period otherwise.
   */
  private void awaitChange() throws InterruptedException {
    WatchService w = watcher;
    if (w == null) {
      Thread.sleep(fallbackMillis);
      return;
    }
    WatchKey k = w.poll(watched() ? backstopMillis : fallbackMillis, TimeUnit.MILLISECONDS);
    if (k != null) {
      // Which file changed does not matter: the check that follows is one stat call.
      k.pollEvents();
      if (!k.reset()) {
        key = null; // the directory is gone or unmounted: registered again if it is back
      }
    }
  }

  /** A check must never end the watch thread: it reports through {@code fatal} instead. */
  private void checkLogged() {
    try {
      check();
    } catch (RuntimeException e) {
      if (closed) {
        return; // a rebinding that close() interrupted
      }
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
      fatal.accept(replaced());
      return;
    }
    rebind();
  }

  private String replaced() {
    return "relay socket "
        + socket
        + " was replaced by another file; refusing to remove it, exiting so that cri-resmgr is"
        + " restarted";
  }

  private void rebind() {
    problem = socket + " was removed";
    LOG.warn("relay socket {} was removed; serving it again", socket);
    RelayServer old = server;
    try {
      server = bind.get();
    } catch (RelayException e) {
      if (fileKey().isPresent()) { // another file took the path meanwhile, and is kept
        problem = socket + " was replaced by another file";
        fatal.accept(replaced());
      } else {
        fatal.accept("relay socket " + socket + " was removed and cannot be served again: " + e);
      }
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
    if (Thread.currentThread() != thread) {
      try {
        thread.join(JOIN_MILLIS); // a rebinding in progress ends first
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      server.close();
    }
  }
}
