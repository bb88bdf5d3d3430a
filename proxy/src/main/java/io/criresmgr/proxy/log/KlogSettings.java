package io.criresmgr.proxy.log;

import io.criresmgr.proxy.config.KlogFlag;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The klog settings of cri-resmgr (Go) as given in layers, each overriding the one before: klog's
 * defaults, the environment ({@link KlogEnvironment}), the command line and {@code logger.Klog}.
 * This daemon honours {@code skip_headers} (no time stamp), {@code logtostderr=true} and {@code
 * alsologtostderr} (it logs every line to stderr anyway); every other flag set to something else
 * than klog's default is reported by {@link #warning()}. Immutable.
 */
public final class KlogSettings {
  /**
   * One given value.
   *
   * @param flag the flag
   * @param value its canonical value
   * @param source where it was given: {@code -v}, {@code LOGGER_V}, {@code logger.Klog.v}
   * @param given the value as given
   */
  public record Setting(KlogFlag flag, String value, String source, String given) {
    /** Checks for nulls. */
    public Setting {
      Objects.requireNonNull(flag, "flag");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(given, "given");
    }
  }

  private static final String NO_FILES = "no log files: every line goes to stderr";
  private static final String NO_LEVELS =
      "no verbosity levels: debug logging is per source, set with LOGGER_DEBUG or logger.Debug";

  private final Map<KlogFlag, Setting> settings;
  private final List<String> notes;

  private KlogSettings(Map<KlogFlag, Setting> settings, List<String> notes) {
    this.settings = settings;
    this.notes = List.copyOf(notes);
  }

  /** klog's defaults. */
  public static KlogSettings defaults() {
    return new KlogSettings(new EnumMap<>(KlogFlag.class), List.of());
  }

  /**
   * These settings with {@code flag} set to {@code value} by {@code source}. Throws {@link
   * IllegalArgumentException} naming the source, the value and what is allowed.
   */
  public KlogSettings with(KlogFlag flag, String value, String source) {
    String checked;
    try {
      checked = flag.check(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
    Map<KlogFlag, Setting> copy = new EnumMap<>(KlogFlag.class);
    copy.putAll(settings);
    copy.put(flag, new Setting(flag, checked, source, value));
    return new KlogSettings(copy, notes);
  }

  /** These settings with the values of {@code logger.Klog} ({@code klog}) on top. */
  public KlogSettings withConfig(Map<String, String> klog) {
    KlogSettings s = this;
    for (Map.Entry<String, String> e : klog.entrySet()) {
      KlogFlag flag =
          KlogFlag.named(e.getKey())
              .orElseThrow(() -> new IllegalArgumentException("unknown klog flag " + e.getKey()));
      s = s.with(flag, e.getValue(), "logger.Klog." + e.getKey());
    }
    return s;
  }

  /** These settings with {@code note} (something else ignored) added to the warning. */
  public KlogSettings withNote(String note) {
    List<String> all = new ArrayList<>(notes);
    all.add(note);
    return new KlogSettings(settings, all);
  }

  /** The value of {@code flag}: the last one given, else klog's default. */
  public String value(KlogFlag flag) {
    Setting s = settings.get(flag);
    return s == null ? flag.defaultValue() : s.value();
  }

  /** Whether log lines go without their time stamp ({@code skip_headers}). */
  public boolean skipHeaders() {
    return Boolean.parseBoolean(value(KlogFlag.SKIP_HEADERS));
  }

  /** What is ignored, each as {@code source=value (why)}, in flag order, then the notes. */
  public List<String> ignored() {
    List<String> ignored = new ArrayList<>();
    for (Setting s : settings.values()) {
      String why = whyIgnored(s.flag(), s.value());
      if (why != null) {
        ignored.add(s.source() + "=" + s.given() + " (" + why + ")");
      }
    }
    ignored.addAll(notes);
    return ignored;
  }

  /** The one warning line naming everything ignored, if anything is. */
  public Optional<String> warning() {
    List<String> ignored = ignored();
    return ignored.isEmpty()
        ? Optional.empty()
        : Optional.of(
            "ignoring cri-resmgr logging settings this daemon cannot honour: "
                + String.join("; ", ignored));
  }

  /** What {@code flag} does in this daemon, in a few words for the usage. */
  public static String effect(KlogFlag flag) {
    return switch (flag) {
      case SKIP_HEADERS -> "honoured";
      case LOGTOSTDERR, ALSOLOGTOSTDERR -> "every line goes to stderr anyway";
      default -> "ignored here, with a warning";
    };
  }

  /** Why {@code value} of {@code flag} is ignored, or null if it is honoured or klog's default. */
  private static @Nullable String whyIgnored(KlogFlag flag, String value) {
    if (value.equals(flag.defaultValue())) {
      return null;
    }
    return switch (flag) {
      case SKIP_HEADERS, ALSOLOGTOSTDERR -> null;
      case V, VMODULE -> NO_LEVELS;
      case STDERRTHRESHOLD -> "every line goes to stderr";
      case ADD_DIR_HEADER -> "log lines name no source files";
      case LOG_BACKTRACE_AT -> "no stack traces on demand";
      case LOGTOSTDERR, LOG_DIR, LOG_FILE, LOG_FILE_MAX_SIZE, ONE_OUTPUT, SKIP_LOG_HEADERS ->
          NO_FILES;
    };
  }
}
