package io.criresmgr.controllers.blockio;

import java.util.List;

/**
 * The devices some globs resolved to, and what was skipped and why.
 *
 * @param devices whole-disk block devices, sorted by major:minor, each once
 * @param warnings one line per glob that matched nothing and per match that was ignored
 */
public record DeviceResolution(List<BlockDevice> devices, List<String> warnings) {
  /** Copies both lists. */
  public DeviceResolution {
    devices = List.copyOf(devices);
    warnings = List.copyOf(warnings);
  }
}
