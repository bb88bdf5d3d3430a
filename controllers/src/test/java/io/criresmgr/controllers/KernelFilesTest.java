package io.criresmgr.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One line per write, appended to an existing file only. */
class KernelFilesTest {
  @TempDir Path dir;

  @Test
  void eachLineIsAppendedWithANewline() throws Exception {
    Path tasks = Files.writeString(dir.resolve("tasks"), "");
    KernelFiles.writeLine(tasks, "41");
    KernelFiles.writeLine(tasks, "42");
    assertEquals("41\n42\n", Files.readString(tasks));
  }

  @Test
  void aMissingFileIsNotCreated() {
    Path missing = dir.resolve("io.max");
    assertThrows(NoSuchFileException.class, () -> KernelFiles.writeLine(missing, "8:0 rbps=1"));
    assertFalse(Files.exists(missing));
  }
}
