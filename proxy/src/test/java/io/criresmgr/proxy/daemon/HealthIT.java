package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.proxy.HttpPages;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.net.http.HttpResponse;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /healthz} says {@code ok} while every background part works and names the part that does
 * not: here a cache file that cannot be written, reported until the saver's retry succeeds.
 */
class HealthIT {
  @TempDir Path dir;

  /**
   * A non-empty directory at {@code saving}, where the saver writes its temporary file, so that
   * every save fails until it is gone. The directory is filled beside it and renamed into place in
   * one step: the saver deletes an empty {@code saving} before each write, and may be writing that
   * file this very moment, so the rename is tried until the path is free.
   */
  private static Path block(Path saving) throws Exception {
    return block(saving, false);
  }

  /**
   * As {@link #block(Path)} for the cache journal (docs/cache-format.md, "The journal"), which may
   * exist as a file: it is deleted (an append to a missing journal fails too) until the directory
   * takes its place.
   */
  private static Path blockJournal(Path journal) throws Exception {
    return block(journal, true);
  }

  private static Path block(Path saving, boolean deleteFile) throws Exception {
    Path ready = Files.createDirectory(saving.resolveSibling("blocker"));
    Files.writeString(ready.resolve("keep"), "x");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        if (deleteFile && Files.isRegularFile(saving, LinkOption.NOFOLLOW_LINKS)) {
          Files.deleteIfExists(saving);
        }
        // rename(2) of a directory fails on a file that is in the way and never replaces one
        Files.move(ready, saving, StandardCopyOption.ATOMIC_MOVE);
        return saving;
      } catch (FileSystemException e) {
        assertTrue(System.nanoTime() < deadline, saving + " stays taken: " + e);
        Thread.sleep(5); // polling interval: a save renames its file away within milliseconds
      }
    }
  }

  private SimRuntimeServer startRuntime() throws Exception {
    return new SimRuntimeServer(
            dir.resolve("rt.sock"),
            new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
        .start();
  }

  private static HttpResponse<String> healthz(int port) throws Exception {
    return HttpPages.get(port, "/healthz");
  }

  private static HttpResponse<String> awaitStatus(int port, int status) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    HttpResponse<String> reply = healthz(port);
    while (reply.statusCode() != status && System.nanoTime() < deadline) {
      Thread.sleep(20); // polling interval
      reply = healthz(port);
    }
    assertEquals(status, reply.statusCode(), reply.body());
    return reply;
  }

  @Test
  void aDumpFileThatCannotBeOpenedNeitherStopsTheStartNorGoesUnreported() throws Exception {
    Path dump = Files.createDirectories(dir.resolve("dump.log"));
    Config base = TestDaemons.config();
    Config config =
        new Config(
            base.policy(),
            base.resourceManager(),
            new DumpConfig(DumpConfig.DEFAULT_RULES, dump.toString(), false, false),
            base.logger(),
            base.instrumentation(),
            base.controllerSections());
    try (SimRuntimeServer sim = startRuntime();
        Daemon daemon =
            Daemon.start(TestDaemons.options(dir, sim.socket(), true), new ConfigStore(config))) {
      String problem = awaitStatus(daemon.metricsPort(), 503).body();
      assertTrue(problem.startsWith("dump: cannot open dump file \"" + dump + "\""), problem);
    }
  }

  @Test
  void reportsACacheThatCannotBeWrittenUntilItIs() throws Exception {
    try (SimRuntimeServer sim = startRuntime();
        Daemon daemon =
            Daemon.start(
                TestDaemons.options(dir, sim.socket(), true),
                new ConfigStore(TestDaemons.config()))) {
      int port = daemon.metricsPort();
      assertEquals("ok\n", awaitStatus(port, 200).body());

      // Saves append to the journal and now and then write the whole file: block both.
      Path blocker = block(dir.resolve("state/cache.saving"));
      Path journalBlocker = blockJournal(dir.resolve("state/cache.journal"));
      try (RawClient relay = new RawClient(dir.resolve("relay/cri-resmgr.sock"))) {
        RuntimeServiceGrpc.newBlockingStub(relay.channel())
            .runPodSandbox(
                RunPodSandboxRequest.newBuilder()
                    .setConfig(
                        PodSandboxConfig.newBuilder()
                            .setMetadata(
                                PodSandboxMetadata.newBuilder()
                                    .setName("web")
                                    .setNamespace("default")
                                    .setUid("uid-web")))
                    .build());
      }
      String problem = awaitStatus(port, 503).body();
      assertTrue(
          problem.startsWith("pipeline: cannot save " + dir.resolve("state/cache")), problem);

      Files.delete(blocker.resolve("keep"));
      Files.delete(blocker);
      Files.delete(journalBlocker.resolve("keep"));
      Files.delete(journalBlocker);
      assertEquals("ok\n", awaitStatus(port, 200).body());
    }
  }
}
