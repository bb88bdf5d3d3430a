package io.criresmgr.proxy.dump;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;

/**
 * Parsed dump rules: comma-separated {@code [level:]pattern} items (reference §2.3).
 *
 * <p>An item without a level takes the previous item's level (the first defaults to {@code full}).
 * A pattern with any of {@code .*?+()[]|} (other than a lone {@code *}) is an unanchored regular
 * expression, {@code *} matches everything, anything else is an exact method name. For a method, an
 * exact name match decides at once; otherwise the last matching pattern wins; no match is off.
 */
public final class DumpRules {
  private static final String REGEX_CHARS = ".*?+()[]|";

  private final List<Rule> rules;
  private final Map<String, DumpLevel> levels = new ConcurrentHashMap<>();

  private DumpRules(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  /** Parses {@code spec}; throws IllegalArgumentException naming the bad item. */
  public static DumpRules parse(String spec) {
    List<Rule> rules = new ArrayList<>();
    DumpLevel level = DumpLevel.FULL;
    for (String raw : spec.split(",", -1)) {
      String item = raw.trim();
      if (item.isEmpty()) {
        continue;
      }
      int colon = item.indexOf(':');
      String pattern = item;
      if (colon >= 0) {
        DumpLevel parsed = DumpLevel.parseOrNull(item.substring(0, colon).trim());
        if (parsed == null) {
          throw new IllegalArgumentException(
              "invalid dump rule \""
                  + item
                  + "\": level must be one of off, suppress, name, short, full, verbose");
        }
        level = parsed;
        pattern = item.substring(colon + 1).trim();
      }
      rules.add(Rule.of(item, level, pattern));
    }
    return new DumpRules(rules);
  }

  /** The level for a short method name such as {@code CreateContainer}. */
  public DumpLevel levelFor(String method) {
    DumpLevel cached = levels.get(method);
    if (cached != null) {
      return cached;
    }
    DumpLevel level = evaluate(method);
    if (levels.size() < 1024) {
      levels.put(method, level);
    }
    return level;
  }

  private DumpLevel evaluate(String method) {
    DumpLevel result = DumpLevel.OFF;
    for (Rule rule : rules) {
      if (rule.regex() == null) {
        if (rule.name().equals(method)) {
          return rule.level();
        }
      } else if (rule.regex().matcher(method).find()) {
        result = rule.level();
      }
    }
    return result;
  }

  /** A rule; {@code regex} is null for an exact method name. */
  private record Rule(DumpLevel level, String name, @Nullable Pattern regex) {
    static Rule of(String item, DumpLevel level, String pattern) {
      if (pattern.equals("*")) {
        return new Rule(level, pattern, Pattern.compile(""));
      }
      if (pattern.chars().noneMatch(c -> REGEX_CHARS.indexOf(c) >= 0)) {
        return new Rule(level, pattern, null);
      }
      try {
        return new Rule(level, pattern, Pattern.compile(pattern));
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "invalid dump rule \"" + item + "\": bad regular expression: " + e.getDescription(), e);
      }
    }
  }
}
