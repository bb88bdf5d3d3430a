package io.criresmgr.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration files and texts that must be refused before they can block or exhaust. */
class ConfigFileLimitsTest {
  // A guard so that a regression fails instead of hanging the build; the assertions are on texts.
  private static final Duration GUARD = Duration.ofSeconds(60);
  private static final String FIFTY_MB = "x".repeat(50 * 1024 * 1024);

  private final ConfigLoader loader = ConfigLoader.builtIn();
  @TempDir Path dir;

  private String loadError(Path file) {
    return assertTimeoutPreemptively(
        GUARD, () -> assertThrows(ConfigException.class, () -> loader.load(file)).getMessage());
  }

  private String parseError(String yaml) {
    return assertTimeoutPreemptively(
        GUARD,
        () -> assertThrows(ConfigException.class, () -> loader.parse("t.cfg", yaml)).getMessage());
  }

  @Test
  void aFileWithAFiftyMegabyteScalarIsRefusedByItsSize() throws IOException {
    Path file = Files.writeString(dir.resolve("big.cfg"), "policy:\n  Active: " + FIFTY_MB + "\n");
    assertEquals(
        file + ": is 52428819 bytes, more than the 1 MiB allowed for a configuration file",
        loadError(file));
  }

  @Test
  void aFiftyMegabyteScalarFromTheAgentIsRefusedByTheDocumentLimit() {
    assertEquals(
        "t.cfg: Document length (52428819) exceeds the maximum allowed (1048576) for configuration",
        parseError("policy:\n  Active: " + FIFTY_MB + "\n"));
    String section =
        assertThrows(
                ConfigException.class,
                () -> loader.parseSections("agent", Map.of("policy", "Active: " + FIFTY_MB)))
            .getMessage();
    assertEquals(
        "agent: section policy: Document length (52428808) exceeds the maximum allowed (1048576)"
            + " for configuration",
        section);
  }

  @Test
  void aValueOfMoreThan64KiBIsRefusedNamingItsKey() {
    assertEquals(
        "t.cfg: String value length (65537) at policy.Active exceeds the maximum allowed (65536)"
            + " for configuration",
        parseError("policy:\n  Active: \"" + "x".repeat(65537) + "\"\n"));
  }

  @Test
  void aFifoIsRefusedWithoutBlocking() throws Exception {
    Path fifo = mkfifo(dir.resolve("forced.cfg"));
    assertEquals(fifo + ": is a FIFO (named pipe), not a regular file", loadError(fifo));
  }

  @Test
  void aLinkToADeviceIsRefusedWithoutReadingIt() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("forced.cfg"), Path.of("/dev/zero"));
    assertEquals(
        link + ": is a symbolic link to /dev/zero, a character device, not a regular file",
        loadError(link));
  }

  @Test
  void aConfigMapMountsLinksAreFollowed() throws IOException {
    Path data = Files.createDirectories(dir.resolve("..2025_01_02_03_04_05.1"));
    Files.writeString(data.resolve("cri-resmgr.cfg"), "dump:\n  Disabled: true\n");
    Files.createSymbolicLink(dir.resolve("..data"), data.getFileName());
    Path file =
        Files.createSymbolicLink(dir.resolve("cri-resmgr.cfg"), Path.of("..data/cri-resmgr.cfg"));
    assertEquals(true, loader.load(file).dump().disabled());
  }

  static Path mkfifo(Path path) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertEquals(0, p.waitFor(), "mkfifo " + path);
    return path;
  }
}
