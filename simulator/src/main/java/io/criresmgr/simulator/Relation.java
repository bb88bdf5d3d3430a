package io.criresmgr.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A relation between the sets of several containers: {@code [cpus, pod0c0, pod0c1+pod0c2]}. An
 * operand joins containers with {@code +} (the union of their sets).
 *
 * @param kind the relation
 * @param attribute whose sets are compared
 * @param operands each a list of containers whose sets are united
 */
record Relation(Kind kind, Attribute attribute, List<List<String>> operands) {
  /** The relations. */
  enum Kind {
    /** No item is in two operands (the reference's {@code disjoint_sets}). */
    DISJOINT,
    /** All operands are equal. */
    SAME,
    /** No two operands are equal. */
    DIFFERENT,
    /** Each operand is a subset of the next one. */
    SUBSET;

    String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Copies the lists. */
  Relation {
    operands = operands.stream().map(List::copyOf).toList();
  }

  /** Parses one relation ({@code [attr, a, b, ...]}) or a list of them. */
  static List<Relation> parse(Kind kind, ScenarioNode node) {
    List<ScenarioNode> items = node.list();
    if (!items.isEmpty() && !items.get(0).isList()) {
      return List.of(one(kind, node));
    }
    List<Relation> out = new ArrayList<>();
    items.forEach(item -> out.add(one(kind, item)));
    return out;
  }

  private static Relation one(Kind kind, ScenarioNode node) {
    List<ScenarioNode> items = node.list();
    if (items.size() < 3) {
      throw node.error(
          "expected [attribute, container, container, ...] with at least two containers");
    }
    Attribute attribute = Attribute.byKey(items.get(0).text());
    if (attribute == null) {
      throw items
          .get(0)
          .error(
              "unknown attribute, expected cpus, mems, nodes, packages, dies,"
                  + " cores or threads");
    }
    List<List<String>> operands = new ArrayList<>();
    for (ScenarioNode item : items.subList(1, items.size())) {
      operands.add(List.of(item.text().split("\\s*\\+\\s*")));
    }
    return new Relation(kind, attribute, operands);
  }

  @Override
  public String toString() {
    List<String> names = operands.stream().map(o -> String.join("+", o)).toList();
    return kind.key() + " " + attribute.key() + " of " + String.join(", ", names);
  }
}
