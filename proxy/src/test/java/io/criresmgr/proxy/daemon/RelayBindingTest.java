package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.relay.NoMethods;
import io.criresmgr.proxy.relay.RelayServer;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay socket's binding: a removal is seen through the kernel's events, without waiting for
 * the periodic check; the periodic checks cover what sends no event and a platform without a watch
 * service.
 */
class RelayBindingTest {
  /** Longer than any test: a binding that reacts within a test's deadline reacted to an event. */
  private static final Duration NEVER = Duration.ofHours(1);

  private static final Duration SHORT = Duration.ofMillis(50);

  @TempDir Path dir;

  private Path socket = Path.of("");
  private final EventLoopGroup boss = EventLoops.epoll("test-accept", 1);
  private final EventLoopGroup workers = EventLoops.epoll("test-io", 1);
  private final List<String> fatal = new CopyOnWriteArrayList<>();
  private @Nullable RelayBinding binding;

  @BeforeEach
  void paths() throws IOException {
    socket = dir.resolve("run/relay.sock");
    Files.createDirectories(socket.getParent()); // the daemon's RelaySocket makes it
  }

  @AfterEach
  void stop() {
    if (binding != null) {
      binding.close();
    }
    EventLoops.shutdown(boss);
    EventLoops.shutdown(workers);
  }

  private RelayBinding serve(Duration backstop, Duration fallback, RelayBinding.Watches watches) {
    binding =
        RelayBinding.serve(
            socket,
            () -> RelayServer.start(socket, boss, workers, NoMethods.REGISTRY, List.of()),
            backstop,
            fallback,
            fatal::add,
            watches);
    return binding;
  }

  private Object fileKey() throws IOException {
    return Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
        .fileKey();
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s: " + what);
      }
      Thread.sleep(5); // polling interval
    }
  }

  private boolean servedAgain(Object oldKey) {
    try {
      return Files.exists(socket, LinkOption.NOFOLLOW_LINKS) && !fileKey().equals(oldKey);
    } catch (IOException e) {
      return false; // removed again between the two calls: not yet
    }
  }

  @Test
  void aRemovedSocketIsServedAgainAtTheKernelsEventNotAtTheNextCheck() throws Exception {
    RelayBinding b = serve(NEVER, NEVER, RelayBinding.Watches.DEFAULT);
    await("the directory is watched", b::watched);
    Object old = fileKey();

    Files.delete(socket);

    await("the socket is served again", () -> servedAgain(old) && b.problem().isEmpty());
    assertEquals(List.of(), fatal);
    assertTrue(b.watched(), "still watched");

    Object second = fileKey();
    Files.delete(socket);
    await("the socket is served again a second time", () -> servedAgain(second));
    assertEquals(List.of(), fatal);
  }

  @Test
  void anotherFileTakingTheSocketsPathIsFatalAndKept() throws Exception {
    RelayBinding b = serve(NEVER, NEVER, RelayBinding.Watches.DEFAULT);
    await("the directory is watched", b::watched);

    // Replaced in one step: a path missing for a moment could be served again first.
    Path other = Files.writeString(socket.resolveSibling("other"), "not a socket\n");
    Files.move(other, socket, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

    await("a fatal error", () -> !fatal.isEmpty());
    assertEquals(
        "relay socket "
            + socket
            + " was replaced by another file; refusing to remove it, exiting so that cri-resmgr"
            + " is restarted",
        fatal.get(0));
    assertEquals(Optional.of(socket + " was replaced by another file"), b.problem());
    assertEquals("not a socket\n", Files.readString(socket));
  }

  @Test
  void withoutAWatchServiceTheSocketIsCheckedEveryFallbackPeriod() throws Exception {
    RelayBinding b =
        serve(
            NEVER,
            SHORT,
            () -> {
              throw new IOException(
                  "User limit of inotify instances reached or too many open files");
            });
    assertFalse(b.watched());
    Object old = fileKey();

    Files.delete(socket);

    await("the socket is served again", () -> servedAgain(old));
    assertEquals(List.of(), fatal);
  }

  @Test
  void aDirectoryMovedAwaySendsNoEventAndIsCaughtByTheBackstop() throws Exception {
    RelayBinding b = serve(SHORT, NEVER, RelayBinding.Watches.DEFAULT);
    await("the directory is watched", b::watched);

    Files.move(socket.getParent(), dir.resolve("moved"));

    // The socket cannot be served again without its directory (and its lock file, RelaySocket):
    // the daemon exits and its service manager restarts it, which makes both again.
    await("a fatal error", () -> !fatal.isEmpty());
    assertTrue(
        fatal
            .get(0)
            .startsWith("relay socket " + socket + " was removed and cannot be served again"),
        fatal.get(0));
    assertTrue(Files.exists(dir.resolve("moved/relay.sock")), "the moved socket is left alone");
  }

  @Test
  void aDirectoryMadeAgainIsWatchedAnewAtItsOldOnesNextEvent() throws Exception {
    RelayBinding b = serve(NEVER, NEVER, RelayBinding.Watches.DEFAULT);
    await("the directory is watched", b::watched);
    Path old = dir.resolve("old");
    Files.move(socket.getParent(), old);
    Files.createDirectory(socket.getParent());

    // Moving the watched directory sends no event; one in it wakes the watch, which finds that
    // the path names another directory now.
    Files.writeString(old.resolve("touch"), "");

    await("the socket is served in the new directory", () -> Files.exists(socket));
    await("the new directory is watched", b::watched);
    Object served = fileKey();
    Files.delete(socket); // seen only through the new directory's events: the backstop is NEVER
    await("the socket is served again", () -> servedAgain(served));
    assertEquals(List.of(), fatal);
  }

  @Test
  void closingEndsTheWatchAndNothingIsServedAgain() throws Exception {
    RelayBinding b = serve(NEVER, NEVER, RelayBinding.Watches.DEFAULT);
    await("the directory is watched", b::watched);

    b.close();
    binding = null;

    assertTrue(b.stopped(), "the watch thread ended within close(): nothing is served again");
  }

  @Test
  void periodsMustBePositive() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> serve(Duration.ZERO, SHORT, RelayBinding.Watches.DEFAULT));
    assertEquals("backstop: must be positive, got PT0S", e.getMessage());
    assertFalse(Files.exists(socket), "nothing was bound");
  }
}
