package io.criresmgr.proxy.cli;

import com.sun.security.auth.module.UnixSystem;
import io.criresmgr.proxy.config.HttpEndpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Conversions of flag values that need more than picocli's defaults. */
final class FlagValues {
  /** Signals {@code --force-config-signal} may name; the others have a meaning already. */
  static final List<String> RELOAD_SIGNALS = List.of("HUP", "USR2");

  private static final String UNIX_SCHEME = "unix://";

  private FlagValues() {}

  /** {@code value} without a leading {@code unix://}. */
  static String socketPath(String value) {
    return value.startsWith(UNIX_SCHEME) ? value.substring(UNIX_SCHEME.length()) : value;
  }

  /** A socket flag that {@code ""} or {@code disabled} turns off, as cri-resmgr's. */
  static Optional<Path> optionalSocket(String value) {
    String path = socketPath(value);
    return path.isEmpty() || path.equals("disabled")
        ? Optional.empty()
        : Optional.of(Path.of(path));
  }

  /**
   * The reload signal's name without {@code SIG} (e.g. {@code HUP}), or empty if {@code value} is
   * empty or starts with {@code disable}. Throws {@link IllegalArgumentException} naming the
   * allowed values.
   */
  static Optional<String> reloadSignal(String value) {
    String v = value.trim().toUpperCase(Locale.ROOT);
    if (v.isEmpty() || v.startsWith("DISABLE")) {
      return Optional.empty();
    }
    String name = v.startsWith("SIG") ? v.substring(3) : v;
    if (!RELOAD_SIGNALS.contains(name)) {
      throw new IllegalArgumentException(
          "unknown or unusable signal \""
              + value
              + "\", expected SIGHUP or SIGUSR2 (SIG prefix optional, any case), or \"\" or"
              + " \"disabled\" for no reload signal");
    }
    return Optional.of(name);
  }

  /**
   * The {@code [host]:port} of {@code --health-endpoint}, or empty for {@code ""} (no listener of
   * its own). Throws {@link IllegalArgumentException} naming the value and what is allowed.
   */
  static Optional<String> healthEndpoint(String value) {
    if (value.isEmpty()) {
      return Optional.empty();
    }
    try {
      HttpEndpoint.check(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "\""
              + value
              + "\" is not [host]:port (such as :8892, 127.0.0.1:8892 or [::1]:8892; port 0 to"
              + " 65535, 0 for any free one), or \"\" for none",
          e);
    }
    return Optional.of(value);
  }

  /**
   * cri-resmgr's default PID file: {@code /var/run/<program>.pid} for root, else {@code
   * /tmp/<program>.pid}.
   */
  static Path defaultPidFile(String program, boolean root) {
    return Path.of(root ? "/var/run" : "/tmp", program + ".pid");
  }

  /** Whether the process runs with user id 0. */
  static boolean isRoot() {
    try {
      return new UnixSystem().getUid() == 0;
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      return "root".equals(System.getProperty("user.name"));
    }
  }
}
