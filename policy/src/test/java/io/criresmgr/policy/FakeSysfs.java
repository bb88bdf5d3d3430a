package io.criresmgr.policy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a minimal fake sysfs below a host root (usually a JUnit {@code @TempDir}): the online CPU
 * and memory node lists {@link HostCpus} reads.
 */
public final class FakeSysfs {
  private final Path hostRoot;

  private FakeSysfs(Path hostRoot) {
    this.hostRoot = hostRoot;
  }

  /** A fake sysfs below {@code hostRoot} (nothing is written yet). */
  public static FakeSysfs at(Path hostRoot) {
    return new FakeSysfs(hostRoot);
  }

  /** The host root. */
  public Path root() {
    return hostRoot;
  }

  /** Writes {@code sys/devices/system/cpu/online} with {@code list} and a newline. */
  public FakeSysfs cpusOnline(String list) {
    return write(HostCpus.CPU_ONLINE, list + "\n");
  }

  /** Writes {@code sys/devices/system/node/online} with {@code list} and a newline. */
  public FakeSysfs nodesOnline(String list) {
    return write(HostCpus.NODE_ONLINE, list + "\n");
  }

  /** Writes {@code content} to {@code relative} below the root, creating directories. */
  public FakeSysfs write(String relative, String content) {
    Path file = hostRoot.resolve(relative);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }
}
