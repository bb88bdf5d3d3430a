package io.criresmgr.proxy.configserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.criresmgr.proxy.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigTextTest {
  @TempDir Path dir;

  @Test
  void encodesSortedAndDecodesTheSameSections() {
    Map<String, String> sections = Map.of("policy", "Active: none\n", "dump", "");
    String text = AgentConfigText.encode(sections);
    assertEquals("{\"dump\":\"\",\"policy\":\"Active: none\\n\"}", text);
    assertEquals(sections, AgentConfigText.decode("stored", text));
  }

  @Test
  void decodingSomethingElseNamesTheSource() {
    assertEquals(
        "stored: not a JSON object of section texts",
        assertThrows(ConfigException.class, () -> AgentConfigText.decode("stored", "[1]"))
            .getMessage());
    assertEquals(
        "stored: section policy is not a string of YAML text",
        assertThrows(
                ConfigException.class,
                () -> AgentConfigText.decode("stored", "{\"policy\":{\"Active\":\"none\"}}"))
            .getMessage());
  }

  @Test
  void readsTheCacheFileWithoutChangingIt() throws Exception {
    assertEquals(Optional.empty(), AgentConfigText.read(dir));
    Files.writeString(dir.resolve("cache"), "{\"Version\":\"1\",\"AgentConfig\":\"{}\"}");
    assertEquals(Optional.of("{}"), AgentConfigText.read(dir));
    Files.writeString(dir.resolve("cache"), "{\"Version\":\"1\",\"AgentConfig\":null}");
    assertEquals(Optional.empty(), AgentConfigText.read(dir));
    Files.writeString(dir.resolve("cache"), "not json");
    assertEquals(Optional.empty(), AgentConfigText.read(dir));
    assertEquals("not json", Files.readString(dir.resolve("cache")));
  }

  @Test
  void aCacheFileThatIsAFifoOrALinkToADeviceHasNoneAndNeverBlocks() throws Exception {
    Process p = new ProcessBuilder("mkfifo", dir.resolve("cache").toString()).inheritIO().start();
    assertEquals(0, p.waitFor());
    assertEquals(
        Optional.empty(),
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> AgentConfigText.read(dir)));
    Files.delete(dir.resolve("cache"));
    Files.createSymbolicLink(dir.resolve("cache"), Path.of("/dev/zero"));
    assertEquals(
        Optional.empty(),
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> AgentConfigText.read(dir)));
  }
}
