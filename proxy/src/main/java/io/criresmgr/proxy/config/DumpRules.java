package io.criresmgr.proxy.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The syntax of {@code dump.Config} (cri-resmgr {@code pkg/dump}): comma-separated {@code
 * [level:]pattern} rules. An entry without a level inherits the previous entry's level ({@code
 * full} for the first). A pattern containing any of {@code .*?+()[]|} (other than a lone {@code *})
 * is a regular expression matched anywhere in the method name; {@code *} matches every method;
 * anything else is an exact method name.
 */
public final class DumpRules {
  private static final String REGEX_CHARS = ".*?+()[]|";

  /** How much of a message is dumped. */
  public enum Level {
    /** Nothing; alias {@code suppress}. */
    OFF,
    /** The method name only; alias {@code short}. */
    NAME,
    /** The whole message; alias {@code verbose}. */
    FULL;

    static Level parse(String text) {
      return switch (text.toLowerCase(Locale.ROOT)) {
        case "off", "suppress" -> OFF;
        case "name", "short" -> NAME;
        case "full", "verbose" -> FULL;
        default ->
            throw new IllegalArgumentException(
                "unknown level \""
                    + text
                    + "\", expected off, suppress, name, short, full or verbose");
      };
    }
  }

  /**
   * One rule.
   *
   * @param level the dump level for matching methods
   * @param pattern an exact method name, {@code *}, or a regular expression
   */
  public record Rule(Level level, String pattern) {
    /** Checks for nulls and an empty pattern. */
    public Rule {
      Objects.requireNonNull(level, "level");
      Objects.requireNonNull(pattern, "pattern");
      if (pattern.isEmpty()) {
        throw new IllegalArgumentException("empty pattern");
      }
    }

    /** Whether {@link #pattern} is a regular expression. */
    public boolean isRegex() {
      return !pattern.equals("*") && pattern.chars().anyMatch(c -> REGEX_CHARS.indexOf(c) >= 0);
    }
  }

  private DumpRules() {}

  /**
   * Parses {@code text} (blank means no rules). Throws {@link IllegalArgumentException} naming the
   * bad item and what is allowed.
   */
  public static List<Rule> parse(String text) {
    List<Rule> rules = new ArrayList<>();
    if (text.isBlank()) {
      return rules;
    }
    Level level = Level.FULL;
    for (String item : text.split(",", -1)) {
      String spec = item.trim();
      try {
        int colon = spec.indexOf(':');
        if (colon >= 0) {
          level = Level.parse(spec.substring(0, colon).trim());
          spec = spec.substring(colon + 1).trim();
        }
        Rule rule = new Rule(level, spec);
        if (rule.isRegex()) {
          Pattern.compile(spec);
        }
        rules.add(rule);
      } catch (PatternSyntaxException e) {
        throw badItem(item, "invalid regular expression: " + e.getDescription());
      } catch (IllegalArgumentException e) {
        throw badItem(item, Objects.requireNonNullElse(e.getMessage(), e.toString()));
      }
    }
    return List.copyOf(rules);
  }

  private static IllegalArgumentException badItem(String item, String reason) {
    return new IllegalArgumentException(
        "bad rule \"" + item.trim() + "\": " + reason + " (rules are [level:]pattern)");
  }
}
