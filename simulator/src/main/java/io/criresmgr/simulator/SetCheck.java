package io.criresmgr.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Expectations on one attribute of one container. Written as a count ({@code cpus: 2}, {@code cpus:
 * ">=2"}), an exact set ({@code cpus: [4, 5]}), or a mapping of the keys below. With {@code minus},
 * the other checks apply to the container's set minus the union of the named containers' sets
 * ({@code others}: every other running container), i.e. to what it alone holds.
 *
 * @param count size condition
 * @param equals exact set
 * @param contains items that must all be in the set
 * @param excludes items none of which may be in the set
 * @param within the set must be a subset of this
 * @param oneOf the set must equal one of these
 * @param minus containers whose sets are taken away first; {@code ["others"]} for all others
 */
record SetCheck(
    Optional<Count> count,
    Optional<NavigableSet<String>> equals,
    NavigableSet<String> contains,
    NavigableSet<String> excludes,
    Optional<NavigableSet<String>> within,
    List<NavigableSet<String>> oneOf,
    List<String> minus) {

  /** The {@code minus} value meaning every other running container. */
  static final String OTHERS = "others";

  private static final List<String> KEYS =
      List.of("count", "equals", "contains", "excludes", "within", "one-of", "minus");

  /** Copies the collections. */
  SetCheck {
    equals = equals.map(SetCheck::copy);
    contains = copy(contains);
    excludes = copy(excludes);
    within = within.map(SetCheck::copy);
    oneOf = oneOf.stream().map(SetCheck::copy).toList();
    minus = List.copyOf(minus);
  }

  private static NavigableSet<String> copy(Set<String> set) {
    NavigableSet<String> out = new TreeSet<>(Attribute.NATURAL);
    out.addAll(set);
    return java.util.Collections.unmodifiableNavigableSet(out);
  }

  /** Parses the check of {@code attribute} at {@code node}. */
  static SetCheck parse(Attribute attribute, ScenarioNode node) {
    if (node.isList()) {
      return new SetCheck(
          Optional.empty(),
          Optional.of(items(attribute, node)),
          empty(),
          empty(),
          Optional.empty(),
          List.of(),
          List.of());
    }
    if (!node.isMapping()) {
      Count count = node.parsed(Count::parse);
      return new SetCheck(
          Optional.of(count),
          Optional.empty(),
          empty(),
          empty(),
          Optional.empty(),
          List.of(),
          List.of());
    }
    Map<String, ScenarioNode> m = node.mapping(KEYS);
    List<NavigableSet<String>> oneOf = new ArrayList<>();
    node.optional("one-of").ifPresent(n -> n.list().forEach(i -> oneOf.add(items(attribute, i))));
    return new SetCheck(
        node.optional("count").map(n -> n.parsed(Count::parse)),
        node.optional("equals").map(n -> items(attribute, n)),
        m.containsKey("contains") ? items(attribute, m.get("contains")) : empty(),
        m.containsKey("excludes") ? items(attribute, m.get("excludes")) : empty(),
        node.optional("within").map(n -> items(attribute, n)),
        oneOf,
        node.optional("minus").map(SetCheck::containers).orElse(List.of()));
  }

  private static List<String> containers(ScenarioNode node) {
    return node.listOrOne().stream().map(ScenarioNode::text).toList();
  }

  /** The items of a list (or one item), canonical. */
  static NavigableSet<String> items(Attribute attribute, ScenarioNode node) {
    NavigableSet<String> out = new TreeSet<>(Attribute.NATURAL);
    for (ScenarioNode item : node.listOrOne()) {
      out.add(item.parsed(attribute::canonical));
    }
    return out;
  }

  private static NavigableSet<String> empty() {
    return new TreeSet<>(Attribute.NATURAL);
  }

  /** What is wrong with {@code actual}; empty if nothing. */
  List<String> failures(NavigableSet<String> actual) {
    List<String> out = new ArrayList<>();
    String shown = Checker.show(actual);
    count
        .filter(c -> !c.test(actual.size()))
        .ifPresent(c -> out.add("expected " + c + " items, got " + actual.size() + ": " + shown));
    equals
        .filter(e -> !e.equals(actual))
        .ifPresent(e -> out.add("expected " + Checker.show(e) + ", got " + shown));
    if (!actual.containsAll(contains)) {
      out.add("expected to contain " + Checker.show(contains) + ", got " + shown);
    }
    if (excludes.stream().anyMatch(actual::contains)) {
      out.add("expected none of " + Checker.show(excludes) + ", got " + shown);
    }
    within
        .filter(w -> !w.containsAll(actual))
        .ifPresent(w -> out.add("expected a subset of " + Checker.show(w) + ", got " + shown));
    if (!oneOf.isEmpty() && !oneOf.contains(actual)) {
      List<String> options = oneOf.stream().map(Checker::show).toList();
      out.add("expected one of " + String.join(" or ", options) + ", got " + shown);
    }
    return out;
  }
}
