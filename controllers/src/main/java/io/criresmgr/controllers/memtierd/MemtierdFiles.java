package io.criresmgr.controllers.memtierd;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The files of one container's memtierd, named as the nri-plugins plugin names them.
 *
 * @param dir the container's output directory
 */
public record MemtierdFiles(Path dir) {
  /** Requires a directory. */
  public MemtierdFiles {
    Objects.requireNonNull(dir, "dir");
  }

  /** The files of {@code container} under {@code runDir}. */
  public static MemtierdFiles of(Path runDir, MemtierdContainer container) {
    return new MemtierdFiles(container.dir(runDir));
  }

  /** The rendered configuration, passed to memtierd with {@code -config}. */
  public Path config() {
    return dir.resolve("memtierd.config.yaml");
  }

  /** memtierd's stdout and stderr. */
  public Path output() {
    return dir.resolve("memtierd.output");
  }

  /** The process id, one line. */
  public Path pid() {
    return dir.resolve("memtierd.pid");
  }

  /** The swap statistics file, the value of {@code $MEMTIERD_SWAP_STATS_PATH}. */
  public Path stats() {
    return dir.resolve("memtierd.stats");
  }
}
