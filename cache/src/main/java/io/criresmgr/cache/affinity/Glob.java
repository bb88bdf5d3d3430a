package io.criresmgr.cache.affinity;

/**
 * Shell patterns as Go's {@code path/filepath.Match} reads them, for the cache's and the policies'
 * callers: the matcher itself is {@link io.criresmgr.adjustment.Glob}, shared with the node agent,
 * which checks the patterns of an Adjustment's container expressions
 * (docs/adr/0014-one-adjustment-model.md).
 */
public final class Glob {
  private Glob() {}

  /**
   * Whether {@code name} matches {@code pattern}.
   *
   * @throws IllegalArgumentException if the pattern is malformed (see {@link #check})
   */
  public static boolean matches(String pattern, String name) {
    return io.criresmgr.adjustment.Glob.matches(pattern, name);
  }

  /**
   * Checks a pattern's syntax.
   *
   * @throws IllegalArgumentException naming the pattern and the problem
   */
  public static void check(String pattern) {
    io.criresmgr.adjustment.Glob.check(pattern);
  }
}
