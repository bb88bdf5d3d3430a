package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache journal (docs/cache-format.md, "The journal"): saves append the changes, loads replay
 * them, a torn tail or a journal of another generation never spoils the state restored.
 */
class CacheJournalTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2025-01-02T03:04:05Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  private CacheFile cacheFile() {
    return new CacheFile(dir, CLOCK);
  }

  private Path journal() {
    return dir.resolve("cache.journal");
  }

  private CacheSnapshot load() {
    CacheFile.LoadResult result = cacheFile().load();
    assertEquals(Optional.empty(), result.problem());
    return result.snapshot().orElseThrow();
  }

  @Test
  void aSaveAfterTheFirstAppendsOnlyWhatChanged() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    Container app = first.containers().get(Container.cacheId("u1", "app"));
    CacheSnapshot second = Fixtures.withContainer(first, app.withState(ContainerState.EXITED));
    CacheFile file = cacheFile();
    file.save(first);
    byte[] whole = Files.readAllBytes(dir.resolve("cache"));
    assertFalse(Files.exists(journal()));

    file.save(second);
    file.save(second); // nothing changed: nothing written

    assertArrayEquals(whole, Files.readAllBytes(dir.resolve("cache")));
    List<String> lines = Files.readAllLines(journal(), UTF_8);
    assertEquals(1, lines.size());
    String batch = lines.get(0).split(" ", 4)[3];
    assertTrue(
        batch.startsWith("{\"Put\":{\"Containers\":{\"u1:app\":{\"CacheID\":\"u1:app\""), batch);
    assertTrue(batch.contains("\"State\":\"EXITED\""), batch);
    assertEquals("rw-------", CacheFileTest.mode(journal()));
    assertEquals(second, load());
  }

  @Test
  void deletesAndTopLevelValuesAreReplayed() {
    CacheSnapshot first = Fixtures.fullSnapshot();
    CacheSnapshot second =
        new CacheSnapshot(
            first.version(),
            Map.of("sandbox-u1", first.pods().get("sandbox-u1")),
            Map.of(),
            42,
            "other",
            Map.of("other", JsonNodeFactory.instance.textNode("y")),
            Optional.empty(),
            Optional.of(new StoredAdjustments("node", "{}")));
    CacheFile file = cacheFile();
    file.save(first);
    file.save(second);
    assertTrue(Files.exists(journal()));
    assertEquals(second, load());
  }

  @Test
  void randomChangesRoundTripThroughJournalAndCompactions() throws Exception {
    Random random = new Random(20);
    RandomSnapshots snapshots = new RandomSnapshots(random);
    CacheSnapshot state = snapshots.snapshot();
    CacheFile file = cacheFile();
    file.save(state);
    int appended = 0;
    int compactions = 0;
    long generation = generation();
    for (int i = 0; i < 400; i++) {
      state = snapshots.change(state);
      if (random.nextInt(50) == 0) {
        file.compact();
      }
      file.save(state);
      appended += Files.exists(journal()) ? 1 : 0;
      if (generation() != generation) {
        compactions++;
        generation = generation();
      }
      if (random.nextInt(10) == 0) {
        CacheSnapshot loaded = load();
        assertEquals(state, loaded, "after change " + i);
        // Byte for byte too: JsonNode.equals does not see the order of a policy data's keys.
        assertArrayEquals(
            SnapshotJson.encode(state), SnapshotJson.encode(loaded), "after change " + i);
        file = cacheFile(); // a restart: its first save writes the whole file
      }
    }
    assertEquals(state, load());
    assertTrue(appended > 200, "saves appended to the journal: " + appended);
    assertTrue(compactions > 5, "compactions: " + compactions);
  }

  @Test
  void aTornOrDamagedLastFrameLoadsTheStateBeforeIt() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    CacheSnapshot second = withSeq(first, 100);
    CacheSnapshot third =
        Fixtures.withContainer(
            second, first.containers().get("u1:app").withState(ContainerState.EXITED));
    CacheFile file = cacheFile();
    file.save(first);
    file.save(second);
    long lastFrame = Files.size(journal());
    file.save(third);
    byte[] whole = Files.readAllBytes(journal());
    for (int cut = (int) lastFrame; cut < whole.length; cut++) {
      Files.write(journal(), Arrays.copyOf(whole, cut));
      assertEquals(second, load(), "journal cut at byte " + cut);
    }
    for (int at = (int) lastFrame; at < whole.length; at++) {
      byte[] damaged = whole.clone();
      damaged[at] ^= 0x20;
      Files.write(journal(), damaged);
      assertEquals(second, load(), "byte " + at + " damaged");
    }
    Files.write(journal(), whole);
    assertEquals(third, load());
  }

  @Test
  void aJournalOfAnEarlierGenerationIsIgnored() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    CacheSnapshot second = withSeq(first, 100);
    CacheSnapshot third = withSeq(first, 200);
    CacheFile file = cacheFile();
    file.save(first);
    file.save(second);
    Path stale = dir.resolve("stale");
    Files.copy(journal(), stale);

    file.compact(third); // as a crash between the new file's rename and the journal's delete
    assertFalse(Files.exists(journal()));
    Files.move(stale, journal());

    assertEquals(third, load());
    assertEquals(List.of(), corruptFiles());
  }

  @Test
  void aSaveLeftUnfinishedKeepsTheFileAndItsJournal() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    CacheSnapshot second = withSeq(first, 100);
    CacheFile file = cacheFile();
    file.save(first);
    file.save(second);
    Files.writeString(dir.resolve("cache.saving"), "{\"Version\":"); // a crash while writing it

    assertEquals(second, load());
    assertFalse(Files.exists(dir.resolve("cache.saving")));
  }

  @Test
  void aFirstSaveWithoutALoadNamesAGenerationNoJournalOnDiskHas() throws Exception {
    CacheFile earlier = cacheFile();
    earlier.save(Fixtures.fullSnapshot());
    earlier.save(withSeq(Fixtures.fullSnapshot(), 100));
    Path stale = dir.resolve("stale");
    Files.copy(journal(), stale);
    Files.delete(dir.resolve("cache")); // and a journal without its file

    CacheSnapshot latest = withSeq(Fixtures.fullSnapshot(), 300);
    cacheFile().save(latest);
    Files.move(stale, journal(), StandardCopyOption.REPLACE_EXISTING);

    assertEquals(latest, load());
  }

  @Test
  void aFileWithoutGenerationLoadsAsBeforeTheJournal() throws Exception {
    CacheSnapshot snapshot = Fixtures.fullSnapshot();
    String older =
        new String(SnapshotJson.encode(snapshot), UTF_8).replace(",\"Generation\":0}", "}");
    assertFalse(older.contains("Generation"));
    Files.writeString(dir.resolve("cache"), older);

    assertEquals(snapshot, load());
    CacheFile file = cacheFile();
    file.load();
    CacheSnapshot next = withSeq(snapshot, 100);
    file.save(next);
    assertEquals(1, generation());
    assertEquals(next, load());
  }

  @Test
  void aJournalThatDoesNotFitTheFileIsMovedAsideWithIt() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    CacheFile file = cacheFile();
    file.save(first);
    Container orphan = first.containers().get("u1:app").toBuilder().podId("sandbox-gone").build();
    file.save(Fixtures.withContainer(first, orphan));

    CacheFile.LoadResult result = cacheFile().load();

    assertEquals(Optional.empty(), result.snapshot());
    Path aside = dir.resolve("cache.corrupt-20250102-030405");
    assertEquals(
        Optional.of(
            "cache file "
                + dir.resolve("cache")
                + " with its journal "
                + journal()
                + " is corrupt (inconsistent: Containers.u1:app: its pod sandbox-gone is not in"
                + " Pods) and was moved to "
                + aside
                + ", its journal to "
                + dir.resolve("cache.corrupt-20250102-030405.journal")
                + "; starting from the runtime's state"),
        result.problem());
    assertEquals(
        List.of(aside.getFileName().toString(), "cache.corrupt-20250102-030405.journal"),
        corruptFiles());
  }

  @Test
  void aSaveAfterAFailedAppendWritesTheWholeSnapshot() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    Container app = first.containers().get(Container.cacheId("u1", "app"));
    CacheSnapshot second = withSeq(first, 100);
    CacheSnapshot third = Fixtures.withContainer(second, app.withState(ContainerState.EXITED));
    CacheSnapshot fourth = withSeq(third, 101);
    CacheFile file = cacheFile();
    file.save(first);
    file.save(second);
    assertTrue(Files.exists(journal()));
    Files.delete(journal());
    Files.createDirectory(journal()); // the append of `third` fails
    assertThrows(CacheException.class, () -> file.save(third));
    Files.delete(journal());

    // A diff against `third`, which never reached the disk, would lose the EXITED state.
    file.save(fourth);

    assertFalse(Files.exists(journal()), "the whole snapshot was written, no journal");
    assertEquals(fourth, SnapshotJson.decode(Files.readAllBytes(dir.resolve("cache"))));
    assertEquals(fourth, load());
  }

  @Test
  void compactingLeavesTheWholeStateInTheFile() throws Exception {
    CacheSnapshot second = withSeq(Fixtures.fullSnapshot(), 100);
    CacheFile file = cacheFile();
    file.save(Fixtures.fullSnapshot());
    file.save(second);
    file.compact();
    assertFalse(Files.exists(journal()));
    assertEquals(second, SnapshotJson.decode(Files.readAllBytes(dir.resolve("cache"))));
  }

  @Test
  void currentReadsTheFileWithItsJournalWithoutChangingThem() throws Exception {
    CacheSnapshot second = withSeq(Fixtures.fullSnapshot(), 100);
    CacheFile file = cacheFile();
    file.save(Fixtures.fullSnapshot());
    file.save(second);
    byte[] journal = Files.readAllBytes(journal());

    assertEquals(100, CacheFile.current(dir).orElseThrow().path("NextID").asLong());
    assertArrayEquals(journal, Files.readAllBytes(journal()));
    assertEquals(Optional.empty(), CacheFile.current(dir.resolve("none")));
  }

  @Test
  void currentStopsBeforeABatchThatDoesNotApplyWithoutHalfApplyingIt() throws Exception {
    CacheFile file = cacheFile();
    file.save(Fixtures.fullSnapshot());
    file.save(withSeq(Fixtures.fullSnapshot(), 100));
    // Its Set applies, its Put does not: nothing of it may show, nor of the batch after it.
    byte[] bad = "{\"Set\":{\"NextID\":200},\"Put\":{\"Containers\":[]}}".getBytes(UTF_8);
    byte[] later = "{\"Set\":{\"NextID\":300}}".getBytes(UTF_8);
    Files.write(
        journal(), JournalFrames.frame(generation(), bad), java.nio.file.StandardOpenOption.APPEND);
    Files.write(
        journal(),
        JournalFrames.frame(generation(), later),
        java.nio.file.StandardOpenOption.APPEND);

    assertEquals(100, CacheFile.current(dir).orElseThrow().path("NextID").asLong());
  }

  @Test
  void aBatchThatWouldGrowTheJournalPastWhatALoadReadsIsWrittenWhole() throws Exception {
    CacheSnapshot first = Fixtures.fullSnapshot();
    Path whole = dir.resolve("cache");
    // The limit a load reads (64 MiB in the daemon) made small: one batch fits, the next not.
    CacheFile file = new CacheFile(dir, CLOCK, 60);
    file.save(first);
    long generation = generation();
    file.save(withSeq(first, 100));
    assertTrue(Files.size(journal()) < 60, "one small batch is appended");
    assertEquals(generation, generation());

    CacheSnapshot third = withSeq(first, 101);
    file.save(third);

    assertFalse(Files.exists(journal()), "written whole, the journal deleted");
    assertEquals(generation + 1, generation());
    assertEquals(third, SnapshotJson.decode(Files.readAllBytes(whole)));
  }

  private long generation() throws Exception {
    return SnapshotJson.generation(SnapshotJson.parse(Files.readAllBytes(dir.resolve("cache"))));
  }

  private List<String> corruptFiles() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.startsWith("cache.corrupt"))
          .sorted()
          .toList();
    }
  }

  private static CacheSnapshot withSeq(CacheSnapshot s, long seq) {
    return new CacheSnapshot(
        s.version(),
        s.pods(),
        s.containers(),
        seq,
        s.activePolicy(),
        s.policyData(),
        s.agentConfig(),
        s.adjustments());
  }
}
