package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.proxy.CommandTree;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.daemon.StateDirLock;
import io.criresmgr.proxy.relay.RawClient;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * The real command line and daemon on a state directory an attacker or an accident has prepared:
 * the start never blocks on or exhausts itself reading the cache file, moves such a file aside,
 * serves CRI, and leaves the directory 0700 and the cache file 0600 (docs/files.md).
 */
class StateFilesIT {
  private static final Duration START_DEADLINE = Duration.ofSeconds(60);

  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void start() throws IOException {
    h = new PipelineHarness(dir);
    Files.createDirectories(h.relayDir());
    Files.setPosixFilePermissions(h.relayDir(), PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterEach
  void close() {
    h.close();
  }

  @Test
  void aFifoAsTheCacheFileIsMovedAsideAndTheDaemonServes() throws Exception {
    Process p = new ProcessBuilder("mkfifo", h.cacheFile().toString()).inheritIO().start();
    assertEquals(0, p.waitFor());
    try {
      startServeAndStop();
    } catch (AssertionFailedError e) {
      new FileOutputStream(h.cacheFile().toFile()).close(); // releases a reader blocked in open()
      throw e;
    }
    Path aside = movedAside();
    assertTrue(
        Files.readAttributes(aside, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther(),
        aside + " is the FIFO");
    assertPrivate();
  }

  @Test
  void aLinkToDevZeroAsTheCacheFileIsMovedAsideAndTheDaemonServes() throws Exception {
    Files.createSymbolicLink(h.cacheFile(), Path.of("/dev/zero"));
    startServeAndStop();
    Path aside = movedAside();
    assertEquals(Path.of("/dev/zero"), Files.readSymbolicLink(aside));
    assertPrivate();
  }

  @Test
  void anOrdinaryStartMakesAnOpenStateDirectoryPrivate() throws Exception {
    startServeAndStop();
    assertEquals(List.of("cache"), names());
    assertPrivate();
  }

  /** Runs cri-resmgr as main does (stored and fallback configuration, reload signal). */
  private void startServeAndStop() throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("fallback.cfg"),
            "policy:\n  Active: none\ninstrumentation:\n  HTTPEndpoint: \"\"\n");
    DaemonOptions o = h.options(false);
    String[] args = {
      "--runtime-socket", o.runtimeSocket().toString(),
      "--relay-socket", o.relaySocket().toString(),
      "--relay-dir", o.relayDir().toString(),
      "--config-socket", dir.resolve("run/config.sock").toString(),
      "--fallback-config", config.toString(),
      "--host-root", o.hostRoot().toString(),
      "--cgroup-mount", o.cgroupMount().toString(),
      "--pid-file", o.pidFile().toString()
    };
    AtomicReference<String> served = new AtomicReference<>("nothing");
    StringWriter err = new StringWriter();
    int status =
        assertTimeoutPreemptively(
            START_DEADLINE,
            () ->
                CommandTree.run(
                    args,
                    new PrintWriter(new StringWriter(), true),
                    new PrintWriter(err, true),
                    (options, store, early) -> serveOnce(options, store, served),
                    List.of()));
    assertEquals(0, status, err.toString());
    assertEquals("containerd", served.get(), "the runtime's name, relayed by the daemon");
  }

  /** Starts the daemon, asks the runtime's version through its relay socket, and stops it. */
  private static int serveOnce(
      DaemonOptions options, ConfigStore store, AtomicReference<String> served) {
    Daemon daemon;
    try {
      daemon = Daemon.start(options, store, PipelineHarness.registry());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
    try (RawClient client = new RawClient(options.relaySocket())) {
      served.set(version(client));
      return 0;
    } finally {
      daemon.close();
    }
  }

  private static String version(RawClient client) {
    return RuntimeServiceGrpc.newBlockingStub(client.channel())
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .version(VersionRequest.getDefaultInstance())
        .getRuntimeName();
  }

  private Path movedAside() throws IOException {
    List<String> names = names();
    assertEquals(2, names.size(), names.toString());
    assertEquals("cache", names.get(0), "a fresh cache file, saved by the daemon");
    assertTrue(names.get(1).startsWith("cache.corrupt-"), names.toString());
    return h.relayDir().resolve(names.get(1));
  }

  private void assertPrivate() throws IOException {
    assertEquals("rwx------", mode(h.relayDir()));
    assertTrue(Files.isRegularFile(h.cacheFile(), LinkOption.NOFOLLOW_LINKS));
    assertEquals("rw-------", mode(h.cacheFile()));
    assertEquals("rw-------", mode(h.relayDir().resolve(StateDirLock.NAME)));
  }

  /** The files in the relay directory but the lock file every daemon keeps there. */
  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(h.relayDir())) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(name -> !name.equals(StateDirLock.NAME))
          .sorted()
          .toList();
    }
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
  }
}
