package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.NodeCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cache file that cannot be written is reported for health and written once it can be; saves
 * append to the journal, and closing leaves the whole state in the file.
 */
class CacheSaverTest {
  @TempDir Path dir;

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
      Thread.sleep(10); // polling interval
    }
  }

  @Test
  void aFailedWriteIsReportedAndRetriedWithoutANewChange() throws Exception {
    // A non-empty directory where the temporary file goes: every write fails until it is gone.
    Path blocker = Files.createDirectories(dir.resolve("cache.saving"));
    Files.writeString(blocker.resolve("keep"), "x");
    NodeCache cache = new NodeCache();
    cache.setAgentConfig("{}");
    CacheFile file = new CacheFile(dir);
    try (CacheSaver saver = new CacheSaver(file)) {
      saver.offer(cache.snapshot());
      await("the failure", () -> saver.problem().isPresent());
      assertTrue(
          saver.problem().get().startsWith("cannot save " + file.path() + ": cannot write"),
          saver.problem().get());

      Files.delete(blocker.resolve("keep"));
      Files.delete(blocker);
      await("the retry", () -> saver.problem().isEmpty());
      assertEquals(Optional.of("{}"), file.load().snapshot().orElseThrow().agentConfig());
    }
  }

  @Test
  void aSnapshotThePipelineCannotGiveYetIsAskedForAgainWithoutANewChange() throws Exception {
    NodeCache cache = new NodeCache();
    cache.setAgentConfig("{}");
    CacheFile file = new CacheFile(dir);
    AtomicInteger asked = new AtomicInteger();
    try (CacheSaver saver = new CacheSaver(file)) {
      saver.offer(
          () -> {
            if (asked.getAndIncrement() == 0) {
              throw new IllegalStateException("the pipeline took no snapshot");
            }
            return cache.snapshot();
          });
      await("the second request", () -> asked.get() >= 2 && Files.exists(file.path()));
      assertEquals(Optional.of("{}"), file.load().snapshot().orElseThrow().agentConfig());
    }
  }

  @Test
  void savesAppendToTheJournalAndClosingLeavesTheWholeStateInTheFile() throws Exception {
    NodeCache cache = new NodeCache();
    CacheFile file = new CacheFile(dir);
    Path journal = dir.resolve(CacheFile.JOURNAL_NAME);
    try (CacheSaver saver = new CacheSaver(file)) {
      saver.offer(cache.snapshot());
      await("the first write", () -> Files.exists(file.path()));
      String whole = Files.readString(file.path());
      cache.setAgentConfig("{}");
      saver.offer(cache.snapshot());
      await("the journal", () -> Files.exists(journal));
      assertEquals(whole, Files.readString(file.path()));
    }
    assertFalse(Files.exists(journal));
    assertEquals(
        Optional.of("{}"), new CacheFile(dir).load().snapshot().orElseThrow().agentConfig());
  }
}
