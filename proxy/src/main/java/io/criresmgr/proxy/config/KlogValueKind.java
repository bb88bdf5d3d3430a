package io.criresmgr.proxy.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The value syntaxes of klog's flags, as klog parses them. */
enum KlogValueKind {
  /** Go's {@code strconv.ParseBool}: {@code true}, {@code false}, {@code 1}, {@code 0}, ... */
  BOOL("true or false (also 1, 0, t, f)") {
    @Override
    String parse(String value) {
      Boolean b = BOOLS.get(value.toLowerCase(Locale.ROOT));
      if (b == null) {
        throw new IllegalArgumentException();
      }
      return b.toString();
    }
  },
  /** A verbosity level: a 32-bit integer. */
  LEVEL("an integer") {
    @Override
    String parse(String value) {
      return Integer.toString(Integer.parseInt(value));
    }
  },
  /** A size in megabytes: an unsigned 64-bit integer. */
  SIZE("a non-negative integer (megabytes)") {
    @Override
    String parse(String value) {
      return Long.toUnsignedString(Long.parseUnsignedLong(value));
    }
  },
  /** A severity by name or number. */
  SEVERITY("INFO, WARNING, ERROR or FATAL (any case), or 0 to 3") {
    @Override
    String parse(String value) {
      String upper = value.toUpperCase(Locale.ROOT);
      if (SEVERITIES.contains(upper)) {
        return upper;
      }
      return SEVERITIES.get(Integer.parseInt(value));
    }
  },
  /** {@code pattern=N} entries separated by commas, N a non-negative integer. */
  VMODULE("comma-separated pattern=N entries, N a non-negative integer") {
    @Override
    String parse(String value) {
      for (String entry : value.split(",", -1)) {
        String[] parts = entry.split("=", -1);
        boolean ok = entry.isEmpty() || (parts.length == 2 && !parts[0].isEmpty());
        if (!ok || (!entry.isEmpty() && Integer.parseInt(parts[1]) < 0)) {
          throw new IllegalArgumentException();
        }
      }
      return value;
    }
  },
  /** {@code file:N}, the file name with a dot and N positive, or empty. */
  TRACE("file:line with a positive line, e.g. main.go:42, or an empty value") {
    @Override
    String parse(String value) {
      String[] parts = value.split(":", -1);
      boolean ok =
          value.isEmpty()
              || (parts.length == 2 && parts[0].contains(".") && Integer.parseInt(parts[1]) > 0);
      if (!ok) {
        throw new IllegalArgumentException();
      }
      return value;
    }
  },
  /** Any text (a path). */
  TEXT("any text") {
    @Override
    String parse(String value) {
      return value;
    }
  };

  private static final Map<String, Boolean> BOOLS =
      Map.of("true", true, "t", true, "1", true, "false", false, "f", false, "0", false);
  private static final List<String> SEVERITIES = List.of("INFO", "WARNING", "ERROR", "FATAL");

  private final String allowed;

  KlogValueKind(String allowed) {
    this.allowed = allowed;
  }

  /** The canonical form of {@code value}; throws any runtime exception if it is malformed. */
  abstract String parse(String value);

  /** The canonical form of {@code value}; throws {@link IllegalArgumentException} if malformed. */
  String check(String value) {
    try {
      return parse(value);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("invalid value \"" + value + "\", expected " + allowed, e);
    }
  }
}
