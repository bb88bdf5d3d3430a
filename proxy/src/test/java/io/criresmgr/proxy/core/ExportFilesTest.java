package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportFilesTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path dir;
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private ExportFiles files;

  private ExportFiles files(Path root) {
    files = new ExportFiles(root, (name, content) -> failures.add(name + "=" + content));
    return files;
  }

  @AfterEach
  void close() {
    if (files != null) {
      files.close();
    }
  }

  private static String read(Path root, String name) throws Exception {
    return Files.readString(root.resolve(name).resolve("resources.sh"));
  }

  @Test
  void theNewestContentHandedOverIsWhatIsWritten() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    for (int i = 0; i < 200; i++) {
      f.writeLater("a", "A=\"" + i + "\"\n");
      f.writeLater("b", "B=\"" + i + "\"\n");
    }
    f.await(WAIT);
    assertEquals("A=\"199\"\n", read(root, "a"));
    assertEquals("B=\"199\"\n", read(root, "b"));
    assertEquals(List.of(), failures);
  }

  @Test
  void aPassLeavesAFileWhoseContentCameBackToWhatItWrote() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    f.writeLater("a", "A=\"1\"\n");
    f.await(WAIT);
    Object written = Files.getAttribute(root.resolve("a").resolve("resources.sh"), "unix:ino");

    f.writeLater("a", "A=\"1\"\n"); // as a create and a remove between two passes leave it
    f.await(WAIT);
    assertEquals(
        written,
        Files.getAttribute(root.resolve("a").resolve("resources.sh"), "unix:ino"),
        "the file is not replaced by one with the same content");

    f.writeLater("a", "A=\"2\"\n");
    f.await(WAIT);
    assertEquals("A=\"2\"\n", read(root, "a"));
    f.deleteLater("a");
    f.await(WAIT);
    f.writeLater("a", "A=\"2\"\n"); // removed meanwhile: written again
    f.await(WAIT);
    assertEquals("A=\"2\"\n", read(root, "a"));

    Files.delete(root.resolve("a").resolve("resources.sh")); // behind the daemon's back
    f.writeLater("a", "A=\"2\"\n");
    f.await(WAIT);
    assertEquals("A=\"2\"\n", read(root, "a"), "what it wrote is no longer there: written again");
    assertEquals(List.of(), failures);
  }

  /** Makes the file of {@code name} unwritable: a directory where its temporary file goes. */
  private static Path block(Path root, String name) throws Exception {
    return Files.createDirectories(root.resolve(name).resolve(".resources.sh.tmp"));
  }

  @Test
  void aWriteThatHangsInOneDirectoryHoldsUpNoOtherDirectory() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    assertNotEquals(
        Math.floorMod("slow".hashCode(), ExportFiles.LOCKS),
        Math.floorMod("new".hashCode(), ExportFiles.LOCKS),
        "two directories of different locks");
    assertTrue(f.prepare("slow", "S=\"0\"\n"));
    assertTrue(f.writePending("slow"));
    // The writer's next write of "slow" opens its temporary file, a FIFO: it hangs until read.
    Path fifo = root.resolve("slow").resolve(".resources.sh.tmp");
    mkfifo(fifo);
    f.writeLater("slow", "S=\"1\"\n");
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (f.isPending("slow")) { // taken by the writer's thread, holding the directory's lock
      assertTrue(System.nanoTime() < deadline, "the writer never took the content");
      Thread.sleep(5);
    }
    try {
      // a new container's directory and file, as a CreateContainer makes them meanwhile
      assertTrue(
          assertTimeoutPreemptively(
              WAIT, () -> f.prepare("new", "N=\"1\"\n") && f.writePending("new")));
      assertEquals("N=\"1\"\n", read(root, "new"));
    } finally {
      Thread reader =
          new Thread(
              () -> {
                try (InputStream in = Files.newInputStream(fifo)) {
                  in.readAllBytes();
                } catch (IOException e) {
                  throw new IllegalStateException(e);
                }
              });
      reader.setDaemon(true);
      reader.start();
      reader.join(WAIT.toMillis());
    }
    f.await(WAIT);
    assertEquals(List.of(), failures);
  }

  private static void mkfifo(Path path) throws Exception {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertEquals(0, p.waitFor(), "mkfifo " + path);
  }

  @Test
  void aCreatedContainersFailedWriteIsTriedAgainUntilItSucceeds() throws Exception {
    Path root = dir.resolve("containers");
    files = new ExportFiles(root, (n, c) -> failures.add(n + "=" + c), Duration.ofMillis(20));
    assertTrue(files.prepare("a", "A=\"1\"\n"));
    Path blocker = block(root, "a");
    assertFalse(files.writePending("a"), "the disk refuses it");
    // a retry due after 20 ms may already have failed again on a slow machine: same report
    assertFalse(failures.isEmpty());
    assertEquals(List.of("a=A=\"1\"\n"), failures.stream().distinct().toList());
    assertFalse(Files.exists(root.resolve("a").resolve("resources.sh")));

    Files.delete(blocker); // room again: no change of the container needed
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!Files.exists(root.resolve("a").resolve("resources.sh"))) {
      assertTrue(System.nanoTime() < deadline, "never written again");
      Thread.sleep(10);
    }
    assertEquals("A=\"1\"\n", read(root, "a"));
    assertEquals(List.of("a=A=\"1\"\n"), failures.stream().distinct().toList());
  }

  @Test
  void aRetryNeverReplacesNewerContentOrARemoval() throws Exception {
    Path root = dir.resolve("containers");
    files = new ExportFiles(root, (n, c) -> failures.add(n + "=" + c), Duration.ofHours(1));
    ExportFiles f = files;
    f.writeLater("a", "A=\"old\"\n");
    f.writeLater("b", "B=\"old\"\n");
    f.await(WAIT);
    Path blockA = block(root, "a");
    Path blockB = block(root, "b");
    f.writeLater("a", "A=\"1\"\n");
    f.writeLater("b", "B=\"1\"\n");
    f.await(WAIT);
    assertEquals(List.of("a=A=\"1\"\n", "b=B=\"1\"\n"), failures);

    f.retryNow(WAIT); // still blocked: kept for the next try
    assertEquals("A=\"old\"\n", read(root, "a"));
    Files.delete(blockA);
    Files.delete(blockB);
    f.writeLater("a", "A=\"2\"\n"); // newer content
    f.await(WAIT);
    f.deleteLater("b"); // the container went away
    f.await(WAIT);
    f.retryNow(WAIT);
    assertEquals("A=\"2\"\n", read(root, "a"), "the failed A=1 is not written over A=2");
    assertFalse(Files.exists(root.resolve("b")), "the failed B=1 does not bring b back");

    block(root, "a");
    f.writeLater("a", "A=\"3\"\n");
    f.await(WAIT);
    Files.delete(root.resolve("a").resolve(".resources.sh.tmp"));
    f.retryNow(WAIT);
    assertEquals("A=\"3\"\n", read(root, "a"), "the failed newest content is retried");
  }

  @Test
  void aDirectoryRemovedNowIsMadeAgainByTheNextPrepare() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    assertTrue(f.prepare("a", "A=\"1\"\n"));
    assertTrue(f.writePending("a"));
    f.deleteNow("a"); // as a reconciliation removes a gone container's directory
    assertFalse(Files.exists(root.resolve("a")));
    assertTrue(f.prepare("a", "A=\"2\"\n")); // the name comes back (NRI mode)
    assertTrue(Files.isDirectory(root.resolve("a")), "made again: the runtime mounts it");
    assertTrue(f.writePending("a"));
    assertEquals("A=\"2\"\n", read(root, "a"));
    assertEquals(List.of(), failures);
  }

  @Test
  void aWriteNowIsNeverOverwrittenByAnOlderPendingOne() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    for (int i = 0; i < 200; i++) {
      f.writeLater("a", "OLD=\"" + i + "\"\n");
      assertTrue(f.writeNow("a", "NEW=\"" + i + "\"\n"));
      assertEquals("NEW=\"" + i + "\"\n", read(root, "a"));
    }
    f.await(WAIT);
    assertEquals("NEW=\"199\"\n", read(root, "a"));
  }

  @Test
  void aRemovalIsUndoneByALaterWrite() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    assertTrue(f.writeNow("a", "A=\"1\"\n"));
    f.deleteLater("a");
    f.await(WAIT);
    assertFalse(Files.exists(root.resolve("a")));

    f.deleteLater("a");
    assertTrue(f.writeNow("a", "A=\"2\"\n"));
    f.await(WAIT);
    assertEquals("A=\"2\"\n", read(root, "a"));
  }

  @Test
  void prepareMakesTheDirectoryAndWritePendingTheFile() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    assertTrue(f.prepare("a", "A=\"1\"\n"));
    assertTrue(Files.isDirectory(root.resolve("a")));
    assertEquals("rwxr-xr-x", mode(root.resolve("a")));
    assertFalse(Files.exists(root.resolve("a/resources.sh")));

    assertTrue(f.writePending("a"));
    assertEquals("A=\"1\"\n", read(root, "a"));
    assertEquals("rw-r--r--", mode(root.resolve("a/resources.sh")));
    // Nothing pending any more: the file stays as it is.
    Files.writeString(root.resolve("a/resources.sh"), "A=\"other\"\n");
    assertTrue(f.writePending("a"));
    assertEquals("A=\"other\"\n", read(root, "a"));
    assertEquals(List.of(), failures);
  }

  @Test
  void writePendingWritesTheNewestContentHandedOverSincePrepare() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    assertTrue(f.prepare("a", "A=\"old\"\n"));
    f.writeLater("a", "A=\"new\"\n");
    assertTrue(f.writePending("a"));
    assertEquals("A=\"new\"\n", read(root, "a"));
    f.await(WAIT);
    assertEquals("A=\"new\"\n", read(root, "a"));
  }

  @Test
  void aRemovalAfterPrepareWinsOverWritePending() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    assertTrue(f.prepare("a", "A=\"1\"\n"));
    f.deleteLater("a");
    assertTrue(f.writePending("a"));
    f.await(WAIT);
    assertFalse(Files.exists(root.resolve("a")));
  }

  @Test
  void aPreparedFileIsWrittenByThePassOfAnotherFileAndNotAgainByWritePending() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    assertTrue(f.prepare("a", "A=\"1\"\n"));
    f.writeLater("b", "B=\"1\"\n");
    f.await(WAIT);
    assertEquals("A=\"1\"\n", read(root, "a"));
    Files.writeString(root.resolve("a/resources.sh"), "A=\"other\"\n");
    assertTrue(f.writePending("a"));
    assertEquals("A=\"other\"\n", read(root, "a"));
  }

  @Test
  void prepareFailsWhenTheDirectoryCannotBeMade() throws Exception {
    Path root = dir.resolve("containers");
    Files.writeString(root, "not a directory");
    ExportFiles f = files(root);
    assertFalse(f.prepare("a", "A=\"1\"\n"));
    assertTrue(f.writePending("a"), "nothing pending");
    f.await(WAIT);
    assertEquals(List.of(), failures);
  }

  @Test
  void aRootThatIsASymbolicLinkIsNotFollowed() throws Exception {
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Path root = Files.createSymbolicLink(dir.resolve("containers"), elsewhere);
    ExportFiles f = files(root);
    assertFalse(f.prepare("a", "A=\"1\"\n"));
    assertFalse(f.writeNow("b", "B=\"1\"\n"));
    try (Stream<Path> made = Files.list(elsewhere)) {
      assertEquals(List.of(), made.toList());
    }
  }

  @Test
  void aMissingStateDirectoryIsCreatedPrivate() throws Exception {
    Path root = dir.resolve("state/containers");
    assertTrue(files(root).writeNow("a", "A=\"1\"\n"));
    assertEquals("rwx------", mode(dir.resolve("state")));
    assertEquals("rwx------", mode(root));
    assertEquals("rwxr-xr-x", mode(root.resolve("a")));
    assertEquals("rw-r--r--", mode(root.resolve("a/resources.sh")));
  }

  @Test
  void aFailedBackgroundWriteIsReportedWithItsContent() throws Exception {
    Path root = dir.resolve("containers");
    Files.writeString(root, "not a directory");
    ExportFiles f = files(root);
    assertFalse(f.writeNow("a", "A=\"1\"\n"));
    f.writeLater("b", "B=\"1\"\n");
    f.await(WAIT);
    assertEquals(List.of("b=B=\"1\"\n"), failures);
  }

  @Test
  void closeWritesWhatIsPending() throws Exception {
    Path root = dir.resolve("containers");
    ExportFiles f = files(root);
    for (int i = 0; i < 50; i++) {
      f.writeLater("c" + i, "I=\"" + i + "\"\n");
    }
    f.close();
    for (int i = 0; i < 50; i++) {
      assertEquals("I=\"" + i + "\"\n", read(root, "c" + i));
    }
  }

  private static String mode(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
