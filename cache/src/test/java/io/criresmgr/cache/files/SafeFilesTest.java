package io.criresmgr.cache.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class SafeFilesTest {
  private static final FileLimit TEN = new FileLimit("a test file", 10);
  private static final Duration NEVER_BLOCKS = Duration.ofSeconds(10);

  @TempDir Path dir;

  @Test
  void readsARegularFileUpToTheLimit() throws IOException {
    Path file = Files.writeString(dir.resolve("f"), "0123456789");
    assertArrayEquals("0123456789".getBytes(StandardCharsets.US_ASCII), SafeFiles.read(file, TEN));
    assertEquals("0123456789", SafeFiles.readUtf8In(dir, file, TEN));
  }

  @Test
  void refusesAFileLargerThanTheLimitNamingBoth() throws IOException {
    Path file = Files.writeString(dir.resolve("f"), "0123456789A");
    RefusedFileException e =
        assertThrows(RefusedFileException.class, () -> SafeFiles.read(file, TEN));
    assertEquals(
        file + ": is 11 bytes, more than the 10 bytes allowed for a test file", e.getMessage());
    assertEquals("is 11 bytes, more than the 10 bytes allowed for a test file", e.getReason());
  }

  @Test
  void refusesASparseFileOfTheConfigLimitPlusOneWithoutReadingIt() throws IOException {
    Path file = dir.resolve("big.yaml");
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(50L * 1024 * 1024);
    }
    RefusedFileException e =
        assertThrows(RefusedFileException.class, () -> SafeFiles.read(file, FileLimit.CONFIG));
    assertEquals(
        "is 52428800 bytes, more than the 1 MiB allowed for a configuration file", e.getReason());
  }

  @Test
  void refusesAFifoWithoutOpeningIt() throws Exception {
    Path fifo = mkfifo(dir.resolve("fifo"));
    List<Executable> reads =
        List.of(() -> SafeFiles.read(fifo, TEN), () -> SafeFiles.readIn(dir, fifo, TEN));
    for (Executable read : reads) {
      RefusedFileException e =
          assertTimeoutPreemptively(
              NEVER_BLOCKS, () -> assertThrows(RefusedFileException.class, read));
      assertEquals(fifo + ": is a FIFO (named pipe), not a regular file", e.getMessage());
    }
  }

  @Test
  void refusesDirectoriesAndDevicesEvenThroughALink() throws IOException {
    assertEquals(
        "is a directory, not a regular file",
        assertThrows(RefusedFileException.class, () -> SafeFiles.read(dir, TEN)).getReason());
    Path link = Files.createSymbolicLink(dir.resolve("zero"), Path.of("/dev/zero"));
    RefusedFileException e =
        assertTimeoutPreemptively(
            NEVER_BLOCKS,
            () -> assertThrows(RefusedFileException.class, () -> SafeFiles.read(link, TEN)));
    assertEquals(
        "is a symbolic link to /dev/zero, a character device, not a regular file", e.getReason());
  }

  @Test
  void followsALinkToARegularFileAnywhereForAFileTheOperatorNames() throws IOException {
    // A ConfigMap mount: file -> ..data/file, ..data -> ..2025_01_01/
    Path version = Files.createDirectories(dir.resolve("..2025_01_01"));
    Files.writeString(version.resolve("cfg"), "a: 1\n");
    Files.createSymbolicLink(dir.resolve("..data"), version.getFileName());
    Path file = Files.createSymbolicLink(dir.resolve("cfg"), Path.of("..data/cfg"));
    assertEquals("a: 1\n", SafeFiles.readUtf8(file, TEN));
  }

  @Test
  void aStateFileMayLinkOnlyWithinItsDirectory() throws IOException {
    Path state = Files.createDirectories(dir.resolve("state"));
    Path outside = Files.writeString(dir.resolve("secret"), "s");
    Files.writeString(state.resolve("real"), "r");
    Path inside = Files.createSymbolicLink(state.resolve("in"), Path.of("real"));
    Path out = Files.createSymbolicLink(state.resolve("out"), outside);
    assertEquals("r", SafeFiles.readUtf8In(state, inside, TEN));
    RefusedFileException e =
        assertThrows(RefusedFileException.class, () -> SafeFiles.readIn(state, out, TEN));
    assertEquals(
        out
            + ": is a symbolic link to "
            + outside.toRealPath()
            + ", outside the directory "
            + state.toRealPath(),
        e.getMessage());
  }

  @Test
  void missingFilesAndDanglingLinksAreNoSuchFile() throws IOException {
    Path dangling = Files.createSymbolicLink(dir.resolve("d"), dir.resolve("nothing"));
    assertThrows(NoSuchFileException.class, () -> SafeFiles.read(dir.resolve("none"), TEN));
    assertThrows(NoSuchFileException.class, () -> SafeFiles.readIn(dir, dir.resolve("none"), TEN));
    assertThrows(NoSuchFileException.class, () -> SafeFiles.read(dangling, TEN));
    assertThrows(NoSuchFileException.class, () -> SafeFiles.readIn(dir, dangling, TEN));
  }

  @Test
  void textMustBeUtf8() throws IOException {
    Path file = Files.write(dir.resolve("f"), new byte[] {'a', (byte) 0xff});
    assertThrows(CharacterCodingException.class, () -> SafeFiles.readUtf8(file, TEN));
  }

  @Test
  void limitsAreStatedInUnits() {
    assertEquals("64 MiB", FileLimit.size(FileLimit.CACHE.maxBytes()));
    assertEquals("1 MiB", FileLimit.size(FileLimit.CONFIG.maxBytes()));
    assertEquals("64 KiB", FileLimit.size(FileLimit.SMALL.maxBytes()));
    assertThrows(IllegalArgumentException.class, () -> new FileLimit("x", 0));
  }

  static Path mkfifo(Path path) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertEquals(0, p.waitFor(), "mkfifo " + path);
    return path;
  }
}
