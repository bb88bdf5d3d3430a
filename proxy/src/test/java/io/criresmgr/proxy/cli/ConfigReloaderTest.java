package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.ConfigStore;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class ConfigReloaderTest {
  private final ConfigLoader loader = ConfigLoader.builtIn();
  @TempDir Path dir;

  private Path write(String yaml) throws Exception {
    return Files.writeString(dir.resolve("forced.cfg"), yaml);
  }

  private static ListAppender<ILoggingEvent> capture() {
    Logger logger = (Logger) LoggerFactory.getLogger(ConfigReloader.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    return appender;
  }

  @Test
  void reloadMakesTheNewFileActive() throws Exception {
    Path file = write("dump:\n  Config: full:.*\n");
    ConfigStore store = new ConfigStore(loader.load(file));
    write("dump:\n  Config: off:.*\n");
    assertTrue(new ConfigReloader(file, loader, store).reload());
    assertEquals("off:.*", store.current().dump().config());
  }

  @Test
  void badFileKeepsTheActiveConfiguration() throws Exception {
    Path file = write("dump:\n  Config: full:.*\n");
    Config active = loader.load(file);
    ConfigStore store = new ConfigStore(active);
    write("dump:\n  Config: full:(\n");
    ListAppender<ILoggingEvent> logged = capture();
    try {
      assertFalse(new ConfigReloader(file, loader, store).reload());
    } finally {
      ((Logger) LoggerFactory.getLogger(ConfigReloader.class)).detachAppender(logged);
    }
    assertSame(active, store.current());
    assertEquals(1, logged.list.size());
    assertEquals(Level.ERROR, logged.list.get(0).getLevel());
    assertEquals(
        "configuration reload failed, the previous configuration stays active: "
            + file
            + ": dump.Config: invalid value \"full:(\": bad rule \"full:(\": invalid regular"
            + " expression: Unclosed group (rules are [level:]pattern)",
        logged.list.get(0).getFormattedMessage());
    Files.delete(file);
    assertFalse(new ConfigReloader(file, loader, store).reload());
    assertSame(active, store.current());
  }

  @Test
  void rejectedConfigurationIsRolledBack() throws Exception {
    Path file = write("logger:\n  Debug: cache\n");
    Config active = loader.load(file);
    ConfigStore store = new ConfigStore(active);
    store.addListener(
        c -> {
          if (c.dump().disabled()) {
            throw new IllegalStateException("dumps cannot be disabled now");
          }
        });
    write("dump:\n  Disabled: true\n");
    assertFalse(new ConfigReloader(file, loader, store).reload());
    assertSame(active, store.current());
  }

  @Test
  void realSignalTriggersReload() throws Exception {
    Path file = write("dump:\n  Config: full:.*\n");
    ConfigStore store = new ConfigStore(loader.load(file));
    write("dump:\n  Config: off:.*\n");
    try (ConfigReloader reloader = new ConfigReloader(file, loader, store)) {
      reloader.start("USR2"); // the daemon's reload signal: refused here is a failure
      long pid = ProcessHandle.current().pid();
      Process kill = new ProcessBuilder("kill", "-USR2", Long.toString(pid)).start();
      assertTrue(kill.waitFor(10, TimeUnit.SECONDS));
      assertEquals(0, kill.exitValue());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!store.current().dump().config().equals("off:.*") && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals("off:.*", store.current().dump().config());
    }
  }

  @Test
  void aFifoInPlaceOfTheFileIsRefusedAndTheNextReloadWorks() throws Exception {
    Path file = write("dump:\n  Config: full:.*\n");
    Config active = loader.load(file);
    ConfigStore store = new ConfigStore(active);
    Files.delete(file);
    mkfifo(file);
    ConfigReloader reloader = new ConfigReloader(file, loader, store);
    ListAppender<ILoggingEvent> logged = capture();
    try {
      assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(30), reloader::reload));
    } finally {
      ((Logger) LoggerFactory.getLogger(ConfigReloader.class)).detachAppender(logged);
    }
    assertSame(active, store.current());
    assertEquals(
        "configuration reload failed, the previous configuration stays active: "
            + file
            + ": is a FIFO (named pipe), not a regular file",
        logged.list.get(0).getFormattedMessage());
    Files.delete(file);
    write("dump:\n  Config: off:.*\n");
    assertTrue(assertTimeoutPreemptively(Duration.ofSeconds(30), reloader::reload));
    assertEquals("off:.*", store.current().dump().config());
  }

  @Test
  void theSignalThreadSurvivesAFifoAndReloadsTheNextGoodFile() throws Exception {
    Path file = write("dump:\n  Config: full:.*\n");
    ConfigStore store = new ConfigStore(loader.load(file));
    try (ConfigReloader reloader = new ConfigReloader(file, loader, store)) {
      reloader.start("USR2"); // the daemon's reload signal: refused here is a failure
      ListAppender<ILoggingEvent> logged = capture();
      try {
        Files.delete(file);
        mkfifo(file);
        try {
          signalAndAwait(() -> logged.list.size() == 1);
        } catch (AssertionError e) {
          releaseBlockedReader(file); // else close() waits for the blocked reload forever
          throw e;
        }
        Files.delete(file);
        write("dump:\n  Config: off:.*\n");
        signalAndAwait(() -> store.current().dump().config().equals("off:.*"));
      } finally {
        ((Logger) LoggerFactory.getLogger(ConfigReloader.class)).detachAppender(logged);
      }
      assertTrue(
          logged
              .list
              .get(0)
              .getFormattedMessage()
              .endsWith(": is a FIFO (named pipe), not a" + " regular file"),
          logged.list.get(0).getFormattedMessage());
    }
  }

  // Opening the FIFO for writing lets a reader blocked in open() go on and read an empty file.
  private static void releaseBlockedReader(Path fifo) throws IOException {
    new FileOutputStream(fifo.toFile()).close();
  }

  private static void signalAndAwait(BooleanSupplier done) throws Exception {
    long pid = ProcessHandle.current().pid();
    Process kill = new ProcessBuilder("kill", "-USR2", Long.toString(pid)).start();
    assertTrue(kill.waitFor(10, TimeUnit.SECONDS));
    assertEquals(0, kill.exitValue());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!done.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(done.getAsBoolean(), "the reload after the signal did not finish in 20 s");
  }

  private static void mkfifo(Path path) throws Exception {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertEquals(0, p.waitFor(), "mkfifo " + path);
  }
}
