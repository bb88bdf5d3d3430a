package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CacheFileTest {
  private static final Clock CLOCK =
      Clock.fixed(LocalDateTime.of(2025, 1, 2, 3, 4, 5).toInstant(ZoneOffset.UTC), ZoneOffset.UTC);
  private static final String ASIDE = "cache.corrupt-20250102-030405";

  @TempDir Path dir;

  private CacheFile cacheFile() {
    return new CacheFile(dir, CLOCK);
  }

  @Test
  void savedSnapshotLoadsEqual() {
    CacheSnapshot snapshot = Fixtures.fullSnapshot();
    cacheFile().save(snapshot);
    CacheFile.LoadResult result = new CacheFile(dir).load();
    assertEquals(Optional.of(snapshot), result.snapshot());
    assertEquals(Optional.empty(), result.problem());
    assertEquals(List.of("cache"), names(dir));
  }

  @Test
  void createsTheRelayDirectoryWithMode0700AndTheFileWith0600() throws IOException {
    Path relay = dir.resolve("var/lib/cri-resmgr");
    new CacheFile(relay).save(Fixtures.fullSnapshot());
    assertEquals("rwx------", mode(relay));
    assertEquals("rw-------", mode(relay.resolve("cache")));
    assertEquals(relay.resolve("cache"), new CacheFile(relay).path());
  }

  @Test
  void replacesAnOldFileReadableByOthersWithAPrivateOne() throws IOException {
    Files.writeString(dir.resolve("cache"), "");
    Files.setPosixFilePermissions(
        dir.resolve("cache"), PosixFilePermissions.fromString("rw-r--r--"));
    cacheFile().save(Fixtures.fullSnapshot());
    assertEquals("rw-------", mode(dir.resolve("cache")));
  }

  @Test
  void neverWritesThroughALinkLeftAsTheSavingFile() throws IOException {
    Path victim = Files.writeString(dir.resolve("victim"), "keep");
    Files.createSymbolicLink(dir.resolve("cache.saving"), victim);
    cacheFile().save(Fixtures.fullSnapshot());
    assertEquals("keep", Files.readString(victim));
    assertEquals(Optional.of(Fixtures.fullSnapshot()), cacheFile().load().snapshot());
  }

  @Test
  void replacesTheFileInsteadOfRewritingIt() throws IOException {
    CacheSnapshot first = Fixtures.fullSnapshot();
    cacheFile().save(first);
    byte[] firstBytes = Files.readAllBytes(dir.resolve("cache"));
    NodeCache cache = NodeCache.restore(first);
    cache.setActivePolicy("none");
    try (InputStream reader = Files.newInputStream(dir.resolve("cache"))) {
      cacheFile().save(cache.snapshot());
      // A reader of the old file still sees all of it: the new file was renamed over it.
      assertArrayEquals(firstBytes, reader.readAllBytes());
    }
    assertEquals("none", cacheFile().load().snapshot().orElseThrow().activePolicy());
    assertEquals(List.of("cache"), names(dir));
  }

  @Test
  void missingFileOrDirectoryIsAnEmptyStart() {
    assertEquals(new CacheFile.LoadResult(Optional.empty(), Optional.empty()), cacheFile().load());
    assertEquals(
        new CacheFile.LoadResult(Optional.empty(), Optional.empty()),
        new CacheFile(dir.resolve("nope")).load());
  }

  @Test
  void emptyOrBlankFileIsAnEmptyStart() throws IOException {
    for (String content : List.of("", " \n\t\r\n")) {
      Files.writeString(dir.resolve("cache"), content);
      assertEquals(
          new CacheFile.LoadResult(Optional.empty(), Optional.empty()), cacheFile().load());
      assertEquals(List.of("cache"), names(dir));
    }
  }

  @Test
  void corruptFileIsMovedAsideWithAProblemText() throws IOException {
    Files.writeString(dir.resolve("cache"), "{\"Version\": oops}");
    CacheFile.LoadResult result = cacheFile().load();
    assertEquals(Optional.empty(), result.snapshot());
    String problem = result.problem().orElseThrow();
    assertTrue(
        problem.startsWith(
            "cache file " + dir.resolve("cache") + " is corrupt (Unrecognized token 'oops'"),
        problem);
    assertTrue(
        problem.endsWith(
            " at line 1, column 13) and was moved to "
                + dir.resolve(ASIDE)
                + "; starting from the runtime's state"),
        problem);
    assertEquals("{\"Version\": oops}", Files.readString(dir.resolve(ASIDE)));
    assertEquals(List.of(ASIDE), names(dir));
  }

  private static CacheSnapshot withPodsAndContainers(
      CacheSnapshot s, Map<String, Pod> pods, Map<String, Container> containers) {
    return new CacheSnapshot(
        s.version(),
        pods,
        containers,
        s.nextSeq(),
        s.activePolicy(),
        s.policyData(),
        s.agentConfig(),
        s.adjustments());
  }

  @Test
  void aContainerOfAnUnknownPodMakesTheFileInconsistent() throws IOException {
    CacheSnapshot full = Fixtures.fullSnapshot();
    cacheFile().save(withPodsAndContainers(full, Map.of(), full.containers()));
    CacheFile.LoadResult result = cacheFile().load();
    assertEquals(Optional.empty(), result.snapshot());
    String problem = result.problem().orElseThrow();
    assertTrue(problem.contains(" is corrupt (inconsistent: Containers."), problem);
    assertTrue(
        problem.contains(" is not in Pods) and was moved to " + dir.resolve(ASIDE)), problem);
  }

  @Test
  void twoContainersWithOneRuntimeIdMakeTheFileInconsistent() throws IOException {
    CacheSnapshot full = Fixtures.fullSnapshot();
    Map<String, Container> twins = new TreeMap<>();
    for (Container c : full.containers().values()) {
      twins.put(c.cacheId(), c.withId("same-id"));
    }
    assertTrue(twins.size() > 1, "the fixture has at least two containers");
    cacheFile().save(withPodsAndContainers(full, full.pods(), twins));
    String problem = cacheFile().load().problem().orElseThrow();
    assertTrue(problem.contains(" have the same runtime id same-id) and was moved to "), problem);
  }

  @Test
  void fileOfAnotherVersionIsMovedAside() throws IOException {
    String content = new String(SnapshotJson.encode(Fixtures.fullSnapshot()), UTF_8);
    Files.writeString(
        dir.resolve("cache"),
        content.replace("\"Version\":\"" + CacheSnapshot.VERSION + "\"", "\"Version\":\"1\""));
    assertEquals(
        Optional.of(
            "cache file "
                + dir.resolve("cache")
                + " has version \"1\" instead of \""
                + CacheSnapshot.VERSION
                + "\" and was moved to "
                + dir.resolve(ASIDE)
                + "; starting from the runtime's state"),
        cacheFile().load().problem());
    assertEquals(List.of(ASIDE), names(dir));
  }

  @Test
  void neverOverwritesAFileMovedAsideEarlier() throws IOException {
    for (int i = 0; i < 3; i++) {
      Files.writeString(dir.resolve("cache"), "garbage " + i);
      assertTrue(cacheFile().load().problem().isPresent());
    }
    assertEquals(List.of(ASIDE, ASIDE + "-2", ASIDE + "-3"), names(dir));
    assertEquals("garbage 0", Files.readString(dir.resolve(ASIDE)));
    assertEquals("garbage 2", Files.readString(dir.resolve(ASIDE + "-3")));
  }

  @Test
  void directoryIsMovedAside() throws IOException {
    Files.createDirectory(dir.resolve("cache"));
    assertEquals(
        Optional.of(
            "cache file "
                + dir.resolve("cache")
                + " is a directory, not a regular file and was moved to "
                + dir.resolve(ASIDE)
                + "; starting from the runtime's state"),
        cacheFile().load().problem());
    assertTrue(Files.isDirectory(dir.resolve(ASIDE)));
  }

  @Test
  void fifoIsMovedAsideWithoutBeingOpened() throws Exception {
    mkfifo(dir.resolve("cache"));
    CacheFile.LoadResult result =
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> cacheFile().load());
    assertEquals(
        Optional.of(
            "cache file "
                + dir.resolve("cache")
                + " is a FIFO (named pipe), not a regular file and was moved to "
                + dir.resolve(ASIDE)
                + "; starting from the runtime's state"),
        result.problem());
    assertEquals(List.of(ASIDE), names(dir));
  }

  @Test
  void linkToADeviceIsMovedAsideAndTheDeviceLeftAlone() throws Exception {
    Files.createSymbolicLink(dir.resolve("cache"), Path.of("/dev/zero"));
    String before = mode(Path.of("/dev/zero"));
    CacheFile.LoadResult result =
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> cacheFile().load());
    assertEquals(
        Optional.of(
            "cache file "
                + dir.resolve("cache")
                + " is a symbolic link to /dev/zero, outside the directory "
                + dir.toRealPath()
                + " and was moved to "
                + dir.resolve(ASIDE)
                + "; starting from the runtime's state"),
        result.problem());
    assertTrue(Files.isSymbolicLink(dir.resolve(ASIDE)));
    assertEquals(before, mode(Path.of("/dev/zero")));
  }

  @Test
  void linkWithinTheRelayDirectoryIsRead() throws IOException {
    new CacheFile(dir.resolve("real")).save(Fixtures.fullSnapshot());
    Files.createSymbolicLink(dir.resolve("cache"), Path.of("real/cache"));
    assertEquals(Optional.of(Fixtures.fullSnapshot()), cacheFile().load().snapshot());
  }

  @Test
  void fileLargerThanTheLimitIsMovedAsideUnread() throws IOException {
    try (RandomAccessFile sparse = new RandomAccessFile(dir.resolve("cache").toFile(), "rw")) {
      sparse.setLength(64L * 1024 * 1024 + 1);
    }
    assertEquals(
        Optional.of(
            "cache file "
                + dir.resolve("cache")
                + " is 67108865 bytes, more than the 64 MiB allowed for the cache file and was"
                + " moved to "
                + dir.resolve(ASIDE)
                + "; starting from the runtime's state"),
        cacheFile().load().problem());
  }

  @Test
  void fileMovedAsideIsPrivate() throws IOException {
    Files.writeString(dir.resolve("cache"), "{\"Pods\": {\"p\": \"secret annotations\"}}");
    Files.setPosixFilePermissions(
        dir.resolve("cache"), PosixFilePermissions.fromString("rw-r--r--"));
    assertTrue(cacheFile().load().problem().isPresent());
    assertEquals("rw-------", mode(dir.resolve(ASIDE)));
  }

  static void mkfifo(Path path) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertEquals(0, p.waitFor(), "mkfifo " + path);
  }

  @Test
  void deletesASavingFileLeftByACrash() throws IOException {
    cacheFile().save(Fixtures.fullSnapshot());
    Files.writeString(dir.resolve("cache.saving"), "{\"Version\":\"cri-res");
    CacheFile.LoadResult result = cacheFile().load();
    assertEquals(Optional.of(Fixtures.fullSnapshot()), result.snapshot());
    assertEquals(List.of("cache"), names(dir));
  }

  @Test
  void saveFailsWithACacheExceptionAndLeavesNoTemporaryFile() throws IOException {
    Path notADirectory = Files.writeString(dir.resolve("relay"), "x");
    CacheException e =
        assertThrows(
            CacheException.class, () -> new CacheFile(notADirectory).save(Fixtures.fullSnapshot()));
    assertTrue(
        e.getMessage().startsWith("cannot write cache file " + notADirectory.resolve("cache")),
        e.getMessage());
    assertTrue(
        e.getMessage()
            .endsWith(
                "check that " + notADirectory + " is a writable directory with" + " free space"),
        e.getMessage());
    assertEquals(List.of("relay"), names(dir));
  }

  @Test
  void savesAnEmptyCache() {
    CacheSnapshot empty = new NodeCache().snapshot();
    cacheFile().save(empty);
    assertEquals(Optional.of(empty), cacheFile().load().snapshot());
    assertFalse(Files.exists(dir.resolve("cache.saving")));
  }

  private static List<String> names(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
