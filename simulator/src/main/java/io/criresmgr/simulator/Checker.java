package io.criresmgr.simulator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/** Evaluates {@link Verify} blocks against an {@link Observed} reading. */
final class Checker {
  private final Observed observed;

  Checker(Observed observed) {
    this.observed = observed;
  }

  /** {@code {a,b,c}}, items in natural order. */
  static String show(Collection<String> set) {
    return "{" + String.join(",", set) + "}";
  }

  /** What does not hold; empty if everything does. */
  List<String> failures(Verify verify) {
    List<String> out = new ArrayList<>();
    verify
        .containers()
        .forEach((name, checks) -> checks.forEach(c -> out.addAll(container(name, c))));
    verify
        .all()
        .ifPresent(
            check ->
                observed.running().keySet().forEach(name -> out.addAll(container(name, check))));
    verify.relations().forEach(r -> out.addAll(relation(r)));
    if (!verify.any().isEmpty()) {
      out.addAll(any(verify.any()));
    }
    return out;
  }

  private List<String> any(List<Verify> alternatives) {
    List<String> reasons = new ArrayList<>();
    for (int i = 0; i < alternatives.size(); i++) {
      List<String> failed = failures(alternatives.get(i));
      if (failed.isEmpty()) {
        return List.of();
      }
      reasons.add("any[" + i + "]: " + String.join("; ", failed));
    }
    return List.of("none of the alternatives holds: " + String.join(" | ", reasons));
  }

  private List<String> container(String name, ContainerCheck check) {
    List<String> out = new ArrayList<>();
    ContainerFacts facts = observed.running().get(name);
    check
        .allocated()
        .filter(expected -> expected != observed.allocated().contains(name))
        .ifPresent(
            expected ->
                out.add(
                    name
                        + ": expected "
                        + (expected ? "" : "no ")
                        + "assignment in the resource manager's cache"
                        + (expected ? ", there is none" : ", there is one")));
    if (check.presence() == ContainerCheck.Presence.ABSENT) {
      if (facts != null) {
        out.add(
            name + ": expected not running, it runs with cpus " + show(facts.set(Attribute.CPUS)));
      }
      return out;
    }
    if (facts == null && check.presence() == ContainerCheck.Presence.EITHER) {
      return out;
    }
    if (facts == null) {
      out.add(
          name
              + ": expected running, it is not (running: "
              + String.join(", ", observed.running().keySet())
              + ")");
      return out;
    }
    if (observed.duplicates().contains(name)) {
      out.add(name + ": several running containers have this name");
    }
    for (Map.Entry<Attribute, SetCheck> e : check.attributes().entrySet()) {
      NavigableSet<String> actual = minus(name, e.getKey(), e.getValue().minus(), out);
      String subject =
          name
              + " "
              + e.getKey().key()
              + (e.getValue().minus().isEmpty()
                  ? ""
                  : " minus " + String.join("+", e.getValue().minus()));
      e.getValue().failures(actual).forEach(f -> out.add(subject + ": " + f));
    }
    return out;
  }

  private NavigableSet<String> minus(
      String name, Attribute a, List<String> minus, List<String> out) {
    NavigableSet<String> set = new TreeSet<>(Attribute.NATURAL);
    ContainerFacts facts = observed.running().get(name);
    if (facts == null) {
      throw new IllegalStateException("container " + name + " is not running");
    }
    set.addAll(facts.set(a));
    List<String> others =
        minus.equals(List.of(SetCheck.OTHERS))
            ? observed.running().keySet().stream().filter(n -> !n.equals(name)).toList()
            : minus;
    for (String other : others) {
      ContainerFacts otherFacts = observed.running().get(other);
      if (otherFacts == null) {
        out.add(name + ": cannot subtract " + other + ", it is not running");
      } else {
        set.removeAll(otherFacts.set(a));
      }
    }
    return set;
  }

  private List<String> relation(Relation r) {
    List<NavigableSet<String>> sets = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (List<String> operand : r.operands()) {
      NavigableSet<String> union = new TreeSet<>(Attribute.NATURAL);
      for (String name : operand) {
        ContainerFacts facts = observed.running().get(name);
        if (facts == null) {
          missing.add(name);
        } else {
          union.addAll(facts.set(r.attribute()));
        }
      }
      sets.add(union);
    }
    if (!missing.isEmpty()) {
      return List.of(r + ": not running: " + String.join(", ", missing));
    }
    return holds(r, sets) ? List.of() : List.of(r + ": got " + describe(r, sets));
  }

  private static boolean holds(Relation r, List<NavigableSet<String>> sets) {
    for (int i = 0; i < sets.size(); i++) {
      for (int j = i + 1; j < sets.size(); j++) {
        NavigableSet<String> a = sets.get(i);
        NavigableSet<String> b = sets.get(j);
        boolean ok =
            switch (r.kind()) {
              case DISJOINT -> a.stream().noneMatch(b::contains);
              case SAME -> a.equals(b);
              case DIFFERENT -> !a.equals(b);
              case SUBSET -> j != i + 1 || b.containsAll(a);
            };
        if (!ok) {
          return false;
        }
      }
    }
    return true;
  }

  private static String describe(Relation r, List<NavigableSet<String>> sets) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < sets.size(); i++) {
      parts.add(String.join("+", r.operands().get(i)) + "=" + show(sets.get(i)));
    }
    return String.join(", ", parts);
  }
}
