package io.criresmgr.proxy.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Which log sources have debug logging on: the value syntax of {@code logger.Debug} and of the
 * environment variable {@code LOGGER_DEBUG}.
 *
 * <p>Syntax: comma-separated entries {@code [state:]source}; {@code state} is one of {@code on},
 * {@code off}, {@code enable}, {@code disable}, {@code true}, {@code false} and carries over to the
 * following entries (the first entry defaults to {@code on}); source {@code all} or {@code *} means
 * every source. Later entries win, so {@code *,off:cache} is everything but the cache.
 *
 * @param entries the entries in order; {@link #ALL} stands for every source
 */
public record DebugSpec(List<Entry> entries) {
  /** The source name standing for every source. */
  public static final String ALL = "*";

  /** What the syntax allows, for error messages. */
  public static final String SYNTAX =
      "expected comma-separated [on|off|enable|disable|true|false:]source entries";

  private static final Map<String, Boolean> STATES =
      Map.of(
          "on", true, "enable", true, "true", true, "off", false, "disable", false, "false", false);

  /** One entry: debug for {@code source} is {@code enabled}. */
  public record Entry(String source, boolean enabled) {
    /** Checks the source is non-blank. */
    public Entry {
      Objects.requireNonNull(source, "source");
      if (source.isBlank()) {
        throw new IllegalArgumentException("source must not be blank");
      }
    }
  }

  /** Copies the entries. */
  public DebugSpec {
    entries = List.copyOf(entries);
  }

  /** No source enabled. */
  public static DebugSpec none() {
    return new DebugSpec(List.of());
  }

  /**
   * Parses {@code text}; blank entries are skipped. Throws {@link IllegalArgumentException} naming
   * the bad entry.
   */
  public static DebugSpec parse(String text) {
    List<Entry> entries = new ArrayList<>();
    boolean state = true;
    for (String item : text.split(",", -1)) {
      String entry = item.trim();
      int colon = entry.indexOf(':');
      if (colon >= 0) {
        Boolean parsed = STATES.get(entry.substring(0, colon).trim().toLowerCase(Locale.ROOT));
        if (parsed == null) {
          throw new IllegalArgumentException(
              "bad entry \""
                  + entry
                  + "\": state must be one of on, off, enable, disable, true,"
                  + " false");
        }
        state = parsed;
        entry = entry.substring(colon + 1).trim();
      }
      if (!entry.isEmpty()) {
        entries.add(new Entry(entry.equals("all") ? ALL : entry, state));
      }
    }
    return new DebugSpec(entries);
  }

  /** This spec followed by {@code later}, whose entries win. */
  public DebugSpec then(DebugSpec later) {
    List<Entry> all = new ArrayList<>(entries);
    all.addAll(later.entries);
    return new DebugSpec(all);
  }

  /** Whether debug is on for {@code source}: the last entry naming it or {@code *} decides. */
  public boolean isEnabled(String source) {
    boolean enabled = false;
    for (Entry e : entries) {
      if (e.source.equals(ALL) || e.source.equals(source)) {
        enabled = e.enabled;
      }
    }
    return enabled;
  }

  /** The canonical text form, parseable by {@link #parse}. */
  @Override
  public String toString() {
    return entries.stream()
        .map(e -> (e.enabled ? "on:" : "off:") + e.source)
        .collect(Collectors.joining(","));
  }
}
