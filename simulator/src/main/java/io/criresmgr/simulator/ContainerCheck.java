package io.criresmgr.simulator;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Expectations on one container: {@code absent} (not running), {@code present}, or a mapping of
 * attributes to {@link SetCheck}s plus {@code allocated: true|false} (whether the resource
 * manager's cache holds an assignment for an active container of that name, the reference's {@code
 * "pod0c0" in allocations}).
 *
 * @param presence whether the container must run, must not run, or either (only {@code allocated}
 *     is checked)
 * @param attributes checks by attribute
 * @param allocated expectation on the cache, if any
 */
record ContainerCheck(
    Presence presence, Map<Attribute, SetCheck> attributes, Optional<Boolean> allocated) {

  /** Whether the container must be running. */
  enum Presence {
    PRESENT,
    ABSENT,
    /** Not checked: only {@code allocated} was given. */
    EITHER
  }

  /** Copies the map. */
  ContainerCheck {
    attributes = attributes.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(attributes));
  }

  /** Parses {@code absent}, {@code present} or a mapping. */
  static ContainerCheck parse(ScenarioNode node) {
    if (node.isText()) {
      return switch (node.text()) {
        case "absent" -> new ContainerCheck(Presence.ABSENT, Map.of(), Optional.empty());
        case "present" -> new ContainerCheck(Presence.PRESENT, Map.of(), Optional.empty());
        default -> throw node.error("expected absent, present or a mapping of checks");
      };
    }
    Map<Attribute, SetCheck> checks = new EnumMap<>(Attribute.class);
    Optional<Boolean> allocated = Optional.empty();
    for (Map.Entry<String, ScenarioNode> e : node.mapping().entrySet()) {
      if (e.getKey().equals("allocated")) {
        allocated = Optional.of(e.getValue().bool());
        continue;
      }
      Attribute a = Attribute.byKey(e.getKey());
      if (a == null) {
        throw e.getValue().error("unknown key, expected one of " + keys());
      }
      checks.put(a, SetCheck.parse(a, e.getValue()));
    }
    Presence presence = checks.isEmpty() ? Presence.EITHER : Presence.PRESENT;
    return new ContainerCheck(presence, checks, allocated);
  }

  private static String keys() {
    List<String> keys = new ArrayList<>();
    for (Attribute a : Attribute.values()) {
      keys.add(a.key());
    }
    keys.add("allocated");
    return String.join(", ", keys);
  }
}
