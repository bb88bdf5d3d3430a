package io.criresmgr.cache.files;

import java.util.Objects;

/**
 * What a file read through {@link SafeFiles} is called in errors and how large it may be.
 *
 * @param what the kind of file, as a noun phrase: "a configuration file"
 * @param maxBytes the largest size read; a larger file is refused before it is opened
 */
public record FileLimit(String what, long maxBytes) {
  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;

  /**
   * A configuration file ({@code --force-config}, {@code --fallback-config}): 1 MiB, the most a
   * Kubernetes ConfigMap holds.
   */
  public static final FileLimit CONFIG = new FileLimit("a configuration file", MIB);

  /**
   * The cache file: 64 MiB, room for 4,000 containers with 16 KiB of labels, annotations and
   * assignment each; parsing it stays well within the launcher's 512 MiB heap.
   */
  public static final FileLimit CACHE = new FileLimit("the cache file", 64 * MIB);

  /** A small state file (a process id, a note, a rendered configuration): 64 KiB. */
  public static final FileLimit SMALL = new FileLimit("a state file", 64 * KIB);

  /** Checks the values. */
  public FileLimit {
    Objects.requireNonNull(what, "what");
    if (maxBytes <= 0 || maxBytes >= Integer.MAX_VALUE) {
      throw new IllegalArgumentException("maxBytes: " + maxBytes + ": expected 1 to 2^31-2");
    }
  }

  /** The limit for people: {@code 64 MiB}, {@code 64 KiB} or {@code 100 bytes}. */
  public static String size(long bytes) {
    if (bytes % MIB == 0) {
      return bytes / MIB + " MiB";
    }
    return bytes % KIB == 0 ? bytes / KIB + " KiB" : bytes + " bytes";
  }
}
