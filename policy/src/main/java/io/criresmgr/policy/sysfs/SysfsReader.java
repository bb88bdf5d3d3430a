package io.criresmgr.policy.sysfs;

import java.nio.file.Path;

/** Discovers the {@link SystemTopology} from sysfs below a host root (DESIGN §6). */
public final class SysfsReader {
  private SysfsReader() {}

  /**
   * Reads {@code <hostRoot>/sys/devices/system/{cpu,node}}.
   *
   * @throws io.criresmgr.policy.PolicyException naming the file that is missing, unreadable,
   *     malformed or inconsistent with the rest of the tree
   */
  public static SystemTopology read(Path hostRoot) {
    throw new UnsupportedOperationException("not yet: " + hostRoot);
  }
}
