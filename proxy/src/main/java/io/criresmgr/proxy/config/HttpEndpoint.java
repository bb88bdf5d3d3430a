package io.criresmgr.proxy.config;

import java.util.regex.Pattern;

/** Syntax of {@code instrumentation.HTTPEndpoint}: {@code [host]:port}, or empty for no server. */
public final class HttpEndpoint {
  /** What is allowed, for error messages. */
  public static final String SYNTAX =
      "expected [host]:port such as :8891, 127.0.0.1:8891 or [::1]:8891, or \"\" for no HTTP"
          + " server";

  private static final Pattern HOST_PORT =
      Pattern.compile("(\\[[0-9A-Fa-f:.%\\w]+\\]|[\\w.-]*):(\\d{1,5})");

  private HttpEndpoint() {}

  /** Checks {@code value}; throws {@link IllegalArgumentException} with {@link #SYNTAX}. */
  public static void check(String value) {
    if (value.isEmpty()) {
      return;
    }
    var m = HOST_PORT.matcher(value);
    if (!m.matches() || Integer.parseInt(m.group(2)) > 65535) {
      throw new IllegalArgumentException(SYNTAX);
    }
  }

  /** The host part ({@code ""} for every address); {@code value} must be valid and non-empty. */
  public static String host(String value) {
    String host = value.substring(0, value.lastIndexOf(':'));
    return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
  }

  /** The port; {@code value} must be valid and non-empty. */
  public static int port(String value) {
    return Integer.parseInt(value.substring(value.lastIndexOf(':') + 1));
  }
}
