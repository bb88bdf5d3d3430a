package io.criresmgr.controllers.blockio;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A device glob with Go's {@code filepath.Match} syntax, as cri-resmgr used: {@code *} (any run of
 * non-separator characters), {@code ?} (one such character), {@code [a-z]} and {@code [^0-9]}
 * classes and {@code \} escapes; one pattern per path component.
 *
 * @param literals the path components below {@code /} as written
 * @param patterns the same components as regular expressions
 */
record DeviceGlob(List<String> literals, List<Pattern> patterns) {
  DeviceGlob {
    literals = List.copyOf(literals);
    patterns = List.copyOf(patterns);
  }

  /**
   * Compiles an absolute glob.
   *
   * @throws IllegalArgumentException with the syntax problem, e.g. {@code unterminated [ in "sd[a"}
   */
  static DeviceGlob compile(String glob) {
    List<String> literals = new ArrayList<>();
    List<Pattern> patterns = new ArrayList<>();
    for (String component : glob.split("/", -1)) {
      if (!component.isEmpty()) {
        literals.add(component);
        patterns.add(Pattern.compile(regex(component)));
      }
    }
    return new DeviceGlob(literals, patterns);
  }

  /** Whether component {@code i} has wildcards, so its directory must be listed. */
  boolean hasMeta(int i) {
    String c = literals.get(i);
    return c.indexOf('*') >= 0
        || c.indexOf('?') >= 0
        || c.indexOf('[') >= 0
        || c.indexOf('\\') >= 0;
  }

  private static String regex(String component) {
    StringBuilder re = new StringBuilder();
    int i = 0;
    while (i < component.length()) {
      char c = component.charAt(i++);
      if (c == '*') {
        re.append(".*");
      } else if (c == '?') {
        re.append('.');
      } else if (c == '[') {
        i = characterClass(component, i, re);
      } else if (c == '\\') {
        if (i == component.length()) {
          throw new IllegalArgumentException("trailing \\ in \"" + component + "\"");
        }
        re.append(Pattern.quote(String.valueOf(component.charAt(i++))));
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return re.toString();
  }

  private static int characterClass(String s, int start, StringBuilder re) {
    int end = s.indexOf(']', start);
    if (end < 0) {
      throw new IllegalArgumentException("unterminated [ in \"" + s + "\"");
    }
    boolean negated = s.charAt(start) == '^';
    String body = s.substring(negated ? start + 1 : start, end);
    if (body.isEmpty()) {
      throw new IllegalArgumentException("empty [] in \"" + s + "\"");
    }
    re.append(negated ? "[^" : "[");
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      re.append(c == '-' ? "-" : Character.isLetterOrDigit(c) ? String.valueOf(c) : "\\" + c);
    }
    re.append(']');
    return end + 1;
  }
}
