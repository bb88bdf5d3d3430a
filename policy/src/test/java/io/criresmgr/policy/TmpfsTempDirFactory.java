package io.criresmgr.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Puts a JUnit {@code @TempDir} on {@code /dev/shm} when it is a tmpfs with room, else in {@code
 * java.io.tmpdir}: use it for fake sysfs trees of thousands of CPUs, whose tens of thousands of
 * small files take a second on tmpfs but can take many on a busy disk ({@code @TempDir(factory =
 * TmpfsTempDirFactory.class)}).
 */
public final class TmpfsTempDirFactory implements TempDirFactory {
  private static final Path SHM = Path.of("/dev/shm");

  /** A tree of 4096 CPUs needs about 200 MB of tmpfs pages; leave room for others. */
  private static final long NEEDED_BYTES = 1L << 30;

  @Override
  public Path createTempDirectory(
      AnnotatedElementContext elementContext, ExtensionContext extensionContext)
      throws IOException {
    if (Files.isDirectory(SHM)
        && Files.isWritable(SHM)
        && Files.getFileStore(SHM).getUsableSpace() > NEEDED_BYTES) {
      return Files.createTempDirectory(SHM, "junit-");
    }
    return Files.createTempDirectory("junit-");
  }
}
