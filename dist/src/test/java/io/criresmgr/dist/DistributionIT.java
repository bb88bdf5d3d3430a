package io.criresmgr.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.dist.TarArchive.Entry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The distribution archive that {@code package} built (dist/pom.xml passes its path): the NOTICE
 * lists exactly its {@code lib/} jars, no test code ships, licences are where docs/building.md
 * says, and every entry carries the project's reproducible-build time and owner root.
 */
class DistributionIT {
  private static final Path ROOT = Path.of(System.getProperty("dist.root", ".."));
  private static Path archive;
  private static String base;
  private static Map<String, Entry> entries;

  @BeforeAll
  static void readArchive() throws IOException {
    archive = Path.of(System.getProperty("dist.archive", "target/missing.tar.gz"));
    List<Entry> list = TarArchive.read(archive);
    base = list.get(0).name().substring(0, list.get(0).name().indexOf('/') + 1);
    entries = list.stream().collect(Collectors.toMap(Entry::name, Function.identity()));
  }

  @Test
  void noticeListsExactlyTheJarsInLib() {
    Set<String> jars = libJars();
    List<Notice.Jar> listed = Notice.parse(text("NOTICE")).jars();
    Set<String> unlisted = new TreeSet<>(jars);
    unlisted.removeIf(jar -> listed.stream().anyMatch(j -> j.matches(jar)));
    Set<String> absent = new TreeSet<>();
    listed.stream()
        .filter(j -> jars.stream().noneMatch(j::matches))
        .forEach(j -> absent.add(j.gav()));
    assertEquals(Set.of(), unlisted, "jars in lib/ that NOTICE does not list");
    assertEquals(Set.of(), absent, "NOTICE entries with no jar in lib/");
    assertTrue(listed.size() > 20, "NOTICE lists " + listed.size() + " jars");
  }

  @Test
  void everyListedJarNamesALicence() {
    for (Notice.Jar jar : Notice.parse(text("NOTICE")).jars()) {
      assertFalse(jar.licences().isBlank(), jar.gav());
      assertFalse(jar.licences().contains("Unknown license"), jar.gav());
    }
  }

  @Test
  void noticeBeginsWithTheRepositoryNotice() throws IOException {
    String notice = Files.readString(ROOT.resolve("NOTICE"));
    assertEquals(notice, Notice.parse(text("NOTICE")).header());
  }

  @Test
  void licenseAndNoticeSitAtTheTop() throws IOException {
    assertArrayEquals(Files.readAllBytes(ROOT.resolve("LICENSE")), file("LICENSE").content());
    assertArrayEquals(
        Files.readAllBytes(archive.resolveSibling("NOTICE")), file("NOTICE").content());
  }

  @Test
  void noTestCodeShips() {
    Set<String> test = new TreeSet<>(libJars());
    test.removeIf(jar -> !jar.startsWith("cri-resmgr-testkit-") && !jar.endsWith("-tests.jar"));
    assertEquals(Set.of(), test, "the test kit or a test-jar in lib/");
  }

  @Test
  void ourJarsCarryLicenseAndNotice() throws IOException {
    Set<String> ours = new TreeSet<>(libJars());
    ours.removeIf(jar -> !jar.startsWith("cri-resmgr-"));
    assertTrue(ours.size() >= 5, "our jars in lib/: " + ours);
    for (String jar : ours) {
      Map<String, byte[]> meta = Jars.metaInf(file("lib/" + jar).content());
      assertArrayEquals(Files.readAllBytes(ROOT.resolve("LICENSE")), meta.get("LICENSE"), jar);
      assertArrayEquals(Files.readAllBytes(ROOT.resolve("NOTICE")), meta.get("NOTICE"), jar);
    }
  }

  @Test
  void entriesCarryTheOutputTimestampAndBelongToRoot() {
    long time = Instant.parse(System.getProperty("dist.outputTimestamp")).getEpochSecond();
    for (Entry e : entries.values()) {
      assertEquals(time, e.mtime(), e.name() + ": modification time");
      assertEquals(0, e.uid() + e.gid(), e.name() + ": uid and gid");
    }
  }

  @Test
  void ourJarEntriesCarryTheOutputTimestamp() throws IOException {
    Instant time = Instant.parse(System.getProperty("dist.outputTimestamp"));
    for (String jar : libJars()) {
      if (jar.startsWith("cri-resmgr-")) {
        Jars.assertEntryTimes(file("lib/" + jar).content(), time, jar);
      }
    }
  }

  @Test
  void gzipHeaderHasNoTime() throws IOException {
    byte[] header = new byte[10];
    try (InputStream in = Files.newInputStream(archive)) {
      assertEquals(10, in.readNBytes(header, 0, 10));
    }
    assertArrayEquals(new byte[4], Arrays.copyOfRange(header, 4, 8), "gzip MTIME");
  }

  private static Set<String> libJars() {
    Set<String> jars = new TreeSet<>();
    for (String name : entries.keySet()) {
      if (name.startsWith(base + "lib/") && name.endsWith(".jar")) {
        jars.add(name.substring((base + "lib/").length()));
      }
    }
    return jars;
  }

  private static Entry file(String path) {
    Entry e = entries.get(base + path);
    assertTrue(e != null && e.isFile(), base + path + " is not a file in " + archive);
    return e;
  }

  private static String text(String path) {
    return new String(file(path).content(), StandardCharsets.UTF_8);
  }
}
