package io.criresmgr.controllers.memtierd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.NodeView;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The note of memtierd processes in the state directory is read like every state file. */
class MemtierdLeftoversTest {
  @TempDir Path dir;

  private ControllerContext context() {
    return new ControllerContext(Path.of(""), dir.resolve("cgroup"), Map.of(), NodeView.EMPTY, dir);
  }

  @Test
  void aFifoAsTheNoteIsIgnoredWithoutBlockingAndRemoved() throws Exception {
    Path note = dir.resolve(MemtierdLeftovers.FILE);
    Process p = new ProcessBuilder("mkfifo", note.toString()).inheritIO().start();
    assertEquals(0, p.waitFor());
    assertEquals(
        0,
        assertTimeoutPreemptively(
            Duration.ofSeconds(30), () -> MemtierdLeftovers.release(context())));
    assertFalse(Files.exists(note, LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void theNoteIsPrivate() throws Exception {
    MemtierdLeftovers.note(
        context(), new MemtierdConfig(List.of(), "/usr/bin/memtierd", dir.resolve("run")));
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dir.resolve(MemtierdLeftovers.FILE))));
  }
}
