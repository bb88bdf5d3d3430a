package io.criresmgr.policy.sysfs;

import java.nio.file.Path;

/**
 * Writes a fake sysfs tree for a {@link TopologySpec} below a host root, in the layout {@link
 * SysfsReader} reads from a real node.
 */
public final class FakeSysfsWriter {
  private FakeSysfsWriter() {}

  /**
   * Writes {@code <hostRoot>/sys/devices/system/...} for {@code spec}.
   *
   * @throws java.io.UncheckedIOException if a file cannot be written
   */
  public static void write(TopologySpec spec, Path hostRoot) {
    throw new UnsupportedOperationException("not yet: " + spec + " " + hostRoot);
  }
}
