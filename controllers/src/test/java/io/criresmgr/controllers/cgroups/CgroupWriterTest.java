package io.criresmgr.controllers.cgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupWriterTest {
  private static final FileTime OLD = FileTime.fromMillis(1_000_000_000L);

  @TempDir Path dir;
  private final CgroupWriter writer = new CgroupWriter();

  @Test
  void writesTheNormalizedValue() throws Exception {
    Path file = file("cpu.max", "max 100000\n");
    assertTrue(writer.write(file, "  50000\t 100000\n"));
    assertEquals("50000 100000", Files.readString(file));
  }

  @Test
  void equalContentModuloWhitespaceIsNotWritten() throws Exception {
    Path file = file("cpu.max", "max 100000\n");
    Files.setLastModifiedTime(file, OLD);
    assertFalse(writer.write(file, "max  100000"));
    assertEquals(OLD, Files.getLastModifiedTime(file));
    assertEquals("max 100000\n", Files.readString(file));
  }

  @Test
  void secondWriteDoesNotTouchTheFile() throws Exception {
    Path file = file("memory.max", "max\n");
    assertTrue(writer.write(file, "1048576"));
    Files.setLastModifiedTime(file, OLD);
    assertFalse(writer.write(file, "1048576"));
    assertEquals(OLD, Files.getLastModifiedTime(file));
  }

  @Test
  void missingFileIsNotCreated() {
    Path file = dir.resolve("cpu.shares");
    CgroupException e = assertThrows(CgroupException.class, () -> writer.write(file, "512"));
    assertEquals("cannot write \"512\" to " + file + ": No such file or directory", e.getMessage());
    assertFalse(Files.exists(file));
  }

  @Test
  void osErrorIsNamed() throws Exception {
    Path notAFile = Files.createDirectory(dir.resolve("cpuset.cpus"));
    CgroupException e = assertThrows(CgroupException.class, () -> writer.write(notAFile, "0-1"));
    assertEquals("cannot write \"0-1\" to " + notAFile + ": Is a directory", e.getMessage());
  }

  @Test
  void multiLineValueIsRefused() throws Exception {
    Path file = file("io.max", "");
    CgroupException e =
        assertThrows(CgroupException.class, () -> writer.write(file, "8:0 rbps=1\n8:16 rbps=2"));
    assertEquals(
        "cannot write \"8:0 rbps=1\n8:16 rbps=2\" to "
            + file
            + ": more than one line, write one at a time",
        e.getMessage());
  }

  private Path file(String name, String content) throws Exception {
    return Files.writeString(dir.resolve(name), content);
  }
}
