package io.criresmgr.cache.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateDirectoryTest {
  @TempDir Path dir;

  @Test
  void createsTheDirectoryAndItsParentsPrivate() throws IOException {
    Path state = dir.resolve("var/lib/cri-resmgr");
    StateDirectory.ensurePrivate(state);
    assertEquals("rwx------", mode(state));
  }

  @Test
  void tightensAnExistingDirectoryOthersMayEnter() throws IOException {
    for (String before : new String[] {"rwxr-xr-x", "rwx--x---", "rwxrwxrwx"}) {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(before));
      StateDirectory.ensurePrivate(dir);
      assertEquals("rwx------", mode(dir), before);
    }
  }

  @Test
  void neverWidensAStricterDirectory() throws IOException {
    Path state = Files.createDirectory(dir.resolve("state"));
    Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("r-x------"));
    StateDirectory.ensurePrivate(state);
    assertEquals("r-x------", mode(state));
  }

  @Test
  void leavesASharedStickyDirectoryAlone() throws IOException, InterruptedException {
    Path shared = Files.createDirectory(dir.resolve("tmp"));
    Process chmod = new ProcessBuilder("chmod", "1777", shared.toString()).inheritIO().start();
    assertEquals(0, chmod.waitFor());
    StateDirectory.ensurePrivate(shared);
    assertEquals("rwxrwxrwx", mode(shared));
  }

  @Test
  void aFileInTheWayIsAnError() throws IOException {
    Path file = Files.writeString(dir.resolve("state"), "x");
    assertThrows(FileAlreadyExistsException.class, () -> StateDirectory.ensurePrivate(file));
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
