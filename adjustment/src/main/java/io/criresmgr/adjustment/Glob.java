package io.criresmgr.adjustment;

/**
 * Shell patterns as Go's {@code path/filepath.Match} reads them on Linux, which cri-resmgr uses for
 * the {@code Matches*} operators and for {@code ReservedPoolNamespaces}: {@code *} is any run of
 * characters other than {@code /}, {@code ?} one character other than {@code /}, {@code [a-z]} /
 * {@code [^a-z]} a (negated) class of characters and ranges, and {@code \c} the character {@code
 * c}. A pattern must match the whole name.
 */
public final class Glob {
  private static final char SEPARATOR = '/';

  private Glob() {}

  /**
   * Whether {@code name} matches {@code pattern}.
   *
   * @throws IllegalArgumentException if the pattern is malformed (see {@link #check})
   */
  public static boolean matches(String pattern, String name) {
    check(pattern);
    return match(pattern, 0, name, 0);
  }

  /**
   * Checks a pattern's syntax.
   *
   * @throws IllegalArgumentException naming the pattern and the problem: an unterminated or empty
   *     character class, a range without an upper end, or a trailing backslash
   */
  public static void check(String pattern) {
    int i = 0;
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      if (c == '[') {
        i = classEnd(pattern, i);
      } else if (c == '\\') {
        i = escapeEnd(pattern, i);
      } else {
        i++;
      }
    }
  }

  private static boolean match(String p, int pi, String s, int si) {
    while (pi < p.length()) {
      char c = p.charAt(pi);
      if (c == '*') {
        return matchStar(p, pi, s, si);
      }
      if (si >= s.length()) {
        return false;
      }
      char x = s.charAt(si);
      if (c == '?') {
        if (x == SEPARATOR) {
          return false;
        }
        pi++;
      } else if (c == '[') {
        int end = classEnd(p, pi);
        if (!inClass(p, pi + 1, end - 1, x)) {
          return false;
        }
        pi = end;
      } else {
        int end = c == '\\' ? escapeEnd(p, pi) : pi + 1;
        if (p.charAt(end - 1) != x) {
          return false;
        }
        pi = end;
      }
      si++;
    }
    return si == s.length();
  }

  // A run of stars matches the shortest prefix of non-separators after which the rest matches.
  private static boolean matchStar(String p, int pi, String s, int si) {
    int rest = pi;
    while (rest < p.length() && p.charAt(rest) == '*') {
      rest++;
    }
    for (int k = si; ; k++) {
      if (match(p, rest, s, k)) {
        return true;
      }
      if (k >= s.length() || s.charAt(k) == SEPARATOR) {
        return false;
      }
    }
  }

  // The index after the ']' closing the class that opens at 'open'.
  private static int classEnd(String p, int open) {
    int i = open + 1;
    if (i < p.length() && p.charAt(i) == '^') {
      i++;
    }
    int ranges = 0;
    while (i >= p.length() || p.charAt(i) != ']' || ranges == 0) {
      i = classChar(p, i, open);
      if (i < p.length() && p.charAt(i) == '-') {
        i = classChar(p, i + 1, open);
      }
      ranges++;
    }
    return i + 1;
  }

  // The index after one character of a class (plain or escaped) at i.
  private static int classChar(String p, int i, int open) {
    if (i >= p.length() || p.charAt(i) == ']' || p.charAt(i) == '-') {
      throw bad(p, "character class at " + open + " is empty, unterminated or has a bad range");
    }
    return p.charAt(i) == '\\' ? escapeEnd(p, i) : i + 1;
  }

  private static int escapeEnd(String p, int backslash) {
    if (backslash + 1 >= p.length()) {
      throw bad(p, "trailing backslash");
    }
    return backslash + 2;
  }

  // Whether x is in the (well-formed) class body p[from, to), '^' included.
  private static boolean inClass(String p, int from, int to, char x) {
    boolean negated = p.charAt(from) == '^';
    int i = negated ? from + 1 : from;
    boolean found = false;
    while (i < to) {
      char lo = p.charAt(i) == '\\' ? p.charAt(i + 1) : p.charAt(i);
      i += p.charAt(i) == '\\' ? 2 : 1;
      char hi = lo;
      if (i < to && p.charAt(i) == '-') {
        hi = p.charAt(i + 1) == '\\' ? p.charAt(i + 2) : p.charAt(i + 1);
        i += p.charAt(i + 1) == '\\' ? 3 : 2;
      }
      found |= lo <= x && x <= hi;
    }
    return found != negated;
  }

  private static IllegalArgumentException bad(String pattern, String problem) {
    return new IllegalArgumentException(
        "invalid pattern \"" + pattern + "\": " + problem + " (syntax: *, ?, [a-z], [^a-z], \\c)");
  }
}
