package io.criresmgr.proxy.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dump file holds container environments with full dumps: only root may read it. */
class DumpSinkTest {
  @TempDir Path dir;

  @Test
  void aNewDumpFileHasMode0600() throws IOException {
    Path file = dir.resolve("dumps/cri.dump");
    try (DumpSink sink = DumpSink.open(false, file.toString())) {
      sink.emit(false, List.of("RunPodSandbox request"), "t0");
    }
    assertEquals("rw-------", mode(file));
    assertEquals("[t0] RunPodSandbox request\n", Files.readString(file));
  }

  @Test
  void anExistingDumpFileIsTruncatedAndMadePrivate() throws IOException {
    Path file = Files.writeString(dir.resolve("cri.dump"), "old secrets\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    DumpSink.open(false, file.toString()).close();
    assertEquals("rw-------", mode(file));
    assertEquals("", Files.readString(file));
  }

  @Test
  void aLinkOrFifoInPlaceOfTheDumpFileIsRefusedAndNothingElseIsTouched() throws Exception {
    Path victim = Files.writeString(dir.resolve("victim"), "keep");
    Path link = Files.createSymbolicLink(dir.resolve("link.dump"), victim);
    assertEquals(
        "cannot open dump file \"" + link + "\": it exists and is not a regular file",
        assertThrows(IllegalArgumentException.class, () -> DumpSink.open(false, link.toString()))
            .getMessage());
    assertEquals("keep", Files.readString(victim));
    Path fifo = dir.resolve("fifo.dump");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, p.waitFor());
    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () ->
            assertThrows(
                IllegalArgumentException.class, () -> DumpSink.open(false, fifo.toString())));
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
