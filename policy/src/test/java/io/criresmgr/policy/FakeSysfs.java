package io.criresmgr.policy;

import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.SysfsReader;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a fake sysfs below a host root (usually a JUnit {@code @TempDir}): either a whole tree
 * generated from a topology spec ({@link #topology(String)}, what {@link SysfsReader} reads), or
 * single files such as the online CPU and memory node lists {@link HostCpus} reads.
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

  /**
   * Writes the tree of a topology spec: a built-in name such as {@code n4c16}, a JSON or YAML flow
   * spec, or a spec file (see {@link TopologySpec#resolve}).
   */
  public FakeSysfs topology(String specOrName) {
    return topology(TopologySpec.resolve(specOrName));
  }

  /** Writes the tree of {@code spec}. */
  public FakeSysfs topology(TopologySpec spec) {
    FakeSysfsWriter.write(spec, hostRoot);
    return this;
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
