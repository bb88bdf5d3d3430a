package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.OptionsReader;
import io.criresmgr.policy.PolicyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of {@code policy.balloons.LoadClasses} (nri-plugins' {@code loadClasses}): a load that
 * the containers of the balloon types listing it in {@code Loads} put on a topology level. Balloons
 * of such types avoid the cores or L2 caches that already hold CPUs of another balloon with a load
 * of the same level; nri-plugins models every level as one virtual device, so two classes of one
 * level are the same load.
 *
 * @param name {@code Name}, what types list in {@code Loads}
 * @param level {@code Level}: {@link ShareLevel#L2CACHE} or {@link ShareLevel#CORE}
 * @param overloadsLevelInBalloon {@code OverloadsLevelInBalloon}: the balloon's own CPUs load the
 *     level too, so it takes one CPU per core (or per L2 cache) while such CPUs are free
 */
public record LoadClass(String name, ShareLevel level, boolean overloadsLevelInBalloon) {
  /** Keys of a load class, in the order error messages list them. */
  static final List<String> KEYS = List.of("Name", "Level", "OverloadsLevelInBalloon");

  private static final Map<String, ShareLevel> LEVELS =
      Map.of("l2cache", ShareLevel.L2CACHE, "core", ShareLevel.CORE);

  /** Checks the name and the level. */
  public LoadClass {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(level, "level");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("load class \"\": Name must not be empty");
    }
    if (!LEVELS.containsValue(level)) {
      throw new IllegalArgumentException(
          "load class \"" + name + "\": Level " + level.label() + ", expected l2cache or core");
    }
  }

  /**
   * Parses {@code LoadClasses} of {@code r}, the section {@code policy.balloons}.
   *
   * @throws PolicyException naming {@code policy.balloons.LoadClasses[<i>].<Field>}, the value and
   *     what is allowed
   */
  static List<LoadClass> parseAll(OptionsReader r) {
    JsonNode v = r.field("LoadClasses").orElse(null);
    if (v == null) {
      return List.of();
    }
    if (!v.isArray()) {
      throw r.invalid("LoadClasses", v, "expected a list of {Name, Level}");
    }
    List<LoadClass> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      LoadClass c = parse(OptionsReader.of("balloons.LoadClasses[" + i + "]", v.get(i), KEYS));
      if (out.stream().anyMatch(o -> o.name().equals(c.name()))) {
        throw new PolicyException(
            r.path("LoadClasses[" + i + "]")
                + ".Name: \""
                + c.name()
                + "\" is already the name of another load class");
      }
      out.add(c);
    }
    return List.copyOf(out);
  }

  private static LoadClass parse(OptionsReader r) {
    String name = r.string("Name", "");
    if (name.isEmpty()) {
      throw new PolicyException(r.path("Name") + ": missing or empty, expected the load's name");
    }
    ShareLevel level = Values.choice(r, "Level", LEVELS, "expected l2cache or core");
    if (level == null) {
      throw new PolicyException(r.path("Level") + ": missing, expected l2cache or core");
    }
    return new LoadClass(name, level, r.bool("OverloadsLevelInBalloon", false));
  }
}
