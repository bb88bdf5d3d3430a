package io.criresmgr.proxy.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The klog flags of cri-resmgr (Go): the keys of {@code logger.Klog}, the command-line flags {@code
 * -v}, {@code -logtostderr}, ... and the environment variables {@code LOGGER_<FLAG>}, with klog's
 * defaults and value syntax. What this daemon does with each is in docs/configuration.md.
 */
public enum KlogFlag {
  ADD_DIR_HEADER(KlogValueKind.BOOL, "false", "Add the source file's directory to line headers."),
  ALSOLOGTOSTDERR(KlogValueKind.BOOL, "false", "Log to stderr as well as to files."),
  LOG_BACKTRACE_AT(KlogValueKind.TRACE, "", "Emit a stack trace when logging at file:N."),
  LOG_DIR(KlogValueKind.TEXT, "", "Write log files into this directory."),
  LOG_FILE(KlogValueKind.TEXT, "", "Write the log to this file."),
  LOG_FILE_MAX_SIZE(KlogValueKind.SIZE, "1800", "Maximum size of a log file in MB."),
  LOGTOSTDERR(KlogValueKind.BOOL, "true", "Log to stderr instead of files."),
  ONE_OUTPUT(KlogValueKind.BOOL, "false", "Write a line only to its own severity's file."),
  SKIP_HEADERS(KlogValueKind.BOOL, "false", "Log lines without the time stamp."),
  SKIP_LOG_HEADERS(KlogValueKind.BOOL, "false", "Open log files without a header."),
  STDERRTHRESHOLD(KlogValueKind.SEVERITY, "ERROR", "Lines at or above this go to stderr."),
  V(KlogValueKind.LEVEL, "0", "Log verbosity level."),
  VMODULE(KlogValueKind.VMODULE, "", "Per-file verbosity, pattern=N,...");

  /** The prefix of the environment variables giving defaults ({@code LOGGER_V}). */
  public static final String ENV_PREFIX = "LOGGER_";

  private final KlogValueKind kind;
  private final String defaultValue;
  private final String help;

  KlogFlag(KlogValueKind kind, String defaultValue, String help) {
    this.kind = kind;
    this.defaultValue = defaultValue;
    this.help = help;
  }

  /** The flag's name, as on klog's command line and in {@code logger.Klog} ({@code log_dir}). */
  public String flagName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The environment variable giving the flag's default ({@code LOGGER_LOG_DIR}). */
  public String envName() {
    return ENV_PREFIX + name();
  }

  /** klog's default, in the canonical form of {@link #check}. */
  public String defaultValue() {
    return defaultValue;
  }

  /** One line saying what the flag does in klog. */
  public String help() {
    return help;
  }

  /** Whether the flag is a boolean: given alone it means {@code true}. */
  public boolean isBoolean() {
    return kind == KlogValueKind.BOOL;
  }

  /**
   * {@code value} in canonical form ({@code true}/{@code false}, a decimal number, a severity
   * name). Throws {@link IllegalArgumentException} saying what is allowed.
   */
  public String check(String value) {
    return kind.check(value);
  }

  /** The flag named {@code name} ({@code log_dir}), if there is one. */
  public static Optional<KlogFlag> named(String name) {
    return Arrays.stream(values()).filter(f -> f.flagName().equals(name)).findFirst();
  }

  /** Every flag name, sorted. */
  public static List<String> names() {
    return Arrays.stream(values()).map(KlogFlag::flagName).sorted().toList();
  }
}
