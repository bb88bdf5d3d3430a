package io.criresmgr.proxy.dump;

import io.criresmgr.proxy.config.DumpRules;
import io.criresmgr.proxy.config.DumpRules.Level;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Decides the dump level of a method from {@link DumpRules} (docs/configuration.md, section {@code
 * dump}): an exact name match decides at once; otherwise the last matching pattern wins; no match
 * is off. Levels are cached per method name, so the relay pays one map lookup per call.
 */
final class DumpMatcher {
  private static final int MAX_CACHED = 1024;

  private final List<Compiled> rules;
  private final Map<String, Level> levels = new ConcurrentHashMap<>();

  private DumpMatcher(List<Compiled> rules) {
    this.rules = rules;
  }

  /** Compiles {@code dump.Config} rules; throws IllegalArgumentException naming a bad item. */
  static DumpMatcher parse(String spec) {
    return new DumpMatcher(DumpRules.parse(spec).stream().map(Compiled::of).toList());
  }

  /** The level for a short method name such as {@code CreateContainer}. */
  Level levelFor(String method) {
    Level cached = levels.get(method);
    if (cached != null) {
      return cached;
    }
    Level level = evaluate(method);
    if (levels.size() < MAX_CACHED) {
      levels.put(method, level);
    }
    return level;
  }

  private Level evaluate(String method) {
    Level result = Level.OFF;
    for (Compiled rule : rules) {
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
  private record Compiled(Level level, String name, @Nullable Pattern regex) {
    static Compiled of(DumpRules.Rule rule) {
      if (rule.pattern().equals("*")) {
        return new Compiled(rule.level(), rule.pattern(), Pattern.compile(""));
      }
      return new Compiled(
          rule.level(), rule.pattern(), rule.isRegex() ? Pattern.compile(rule.pattern()) : null);
    }
  }
}
