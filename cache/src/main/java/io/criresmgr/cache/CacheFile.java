package io.criresmgr.cache;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/** The cache's file in {@code --relay-dir}: a versioned JSON snapshot, replaced atomically. */
public final class CacheFile {
  /** The file name inside the relay directory, as in cri-resmgr. */
  public static final String NAME = "cache";

  private final Path file;

  /** The cache file {@code <relayDir>/cache}. */
  public CacheFile(Path relayDir) {
    this.file = Objects.requireNonNull(relayDir, "relayDir").resolve(NAME);
  }

  /** The file's path. */
  public Path path() {
    return file;
  }

  /**
   * Reads the snapshot. A missing or empty file gives an empty result; a file that cannot be read,
   * parsed or has another version is moved aside and the result says where and why.
   */
  public LoadResult load() {
    throw new UnsupportedOperationException("TODO");
  }

  /**
   * Writes {@code snapshot} to {@code <file>.saving} and renames it over the file atomically.
   *
   * @throws CacheException if it cannot be written
   */
  public void save(CacheSnapshot snapshot) {
    throw new UnsupportedOperationException("TODO");
  }

  /**
   * The outcome of {@link #load}.
   *
   * @param snapshot what was restored, if anything
   * @param problem why the file was not restored (already moved aside), if it was not
   */
  public record LoadResult(Optional<CacheSnapshot> snapshot, Optional<String> problem) {
    /** Checks for nulls. */
    public LoadResult {
      Objects.requireNonNull(snapshot, "snapshot");
      Objects.requireNonNull(problem, "problem");
    }
  }
}
