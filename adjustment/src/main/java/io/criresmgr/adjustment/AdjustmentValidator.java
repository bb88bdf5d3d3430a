package io.criresmgr.adjustment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The one check of Adjustment specs, used by the node agent on each custom resource and by the
 * daemon on each {@code SetAdjustment} (docs/adr/0014-one-adjustment-model.md). It reads a plain
 * Java tree, as each side's JSON library converts it: {@link Map} (an object), {@link List}, {@link
 * String}, {@link Number}, {@link Boolean} and {@code null}. A number's {@code toString()} is taken
 * as its text ({@link java.math.BigDecimal} or a number keeping its text; a {@link Double} is
 * written as {@link java.math.BigDecimal#valueOf(double)} writes it).
 *
 * <p>It reports every problem, one line each, as {@code adjustment <name>: <field path>: <what is
 * wrong>}, naming the value and what is allowed: unknown fields, a missing or empty {@code scope},
 * values of the wrong type, {@code null} in a list, an empty node name, a missing container
 * expression key, an unknown operator or the wrong number of values for it, a malformed glob,
 * resources other than cpu and memory, quantities that do not parse, a limit below its request (a
 * missing request is the limit), and {@code resources} setting nothing. A {@code null} optional
 * field counts as absent. The rules read top to bottom in the spec's field order, in one walk
 * collecting the problems, which is why the class is a little over the usual size.
 */
public final class AdjustmentValidator {
  private static final Set<String> SPEC_FIELDS =
      Set.of("scope", "resources", "classes", "toptierLimit");
  private static final Set<String> SCOPE_FIELDS = Set.of("nodes", "containers");
  private static final Set<String> EXPRESSION_FIELDS = Set.of("key", "operator", "values");
  private static final Set<String> RESOURCE_FIELDS = Set.of("requests", "limits");
  private static final Set<String> RESOURCE_NAMES = Set.copyOf(AdjustmentSpec.RESOURCES);
  private static final Set<String> CLASS_FIELDS = Set.of("rdt", "blockio");

  private final List<String> problems = new ArrayList<>();
  private String where = "";

  private AdjustmentValidator() {}

  /**
   * The outcome of a check.
   *
   * @param specs the valid specs by name, in the order given
   * @param problems every problem found, one line each; empty if all specs are valid
   */
  public record Checked(Map<String, AdjustmentSpec> specs, List<String> problems) {
    /** Copies the collections (keeping the order of the specs). */
    public Checked {
      specs = Collections.unmodifiableMap(new LinkedHashMap<>(specs));
      problems = List.copyOf(problems);
    }

    /** Whether no problem was found. */
    public boolean valid() {
      return problems.isEmpty();
    }
  }

  /** Checks the specs of {@code specs} (adjustment name to spec tree). */
  public static Checked check(Map<String, ? extends @Nullable Object> specs) {
    AdjustmentValidator validator = new AdjustmentValidator();
    Map<String, AdjustmentSpec> valid = new LinkedHashMap<>();
    specs.forEach((name, spec) -> validator.spec(name, spec).ifPresent(s -> valid.put(name, s)));
    return new Checked(valid, validator.problems);
  }

  /** Checks the spec tree {@code spec} of adjustment {@code name} ({@code null}: no spec). */
  public static Checked check(String name, @Nullable Object spec) {
    Map<String, @Nullable Object> one = new LinkedHashMap<>();
    one.put(name, spec);
    return check(one);
  }

  private Optional<AdjustmentSpec> spec(String name, @Nullable Object spec) {
    where = "adjustment " + name + ": ";
    if (name.isEmpty()) {
      problems.add("adjustments: an adjustment has an empty name");
      return Optional.empty();
    }
    int before = problems.size();
    Map<?, ?> fields = object(spec, "spec", SPEC_FIELDS);
    if (fields == null) {
      return Optional.empty();
    }
    List<ScopeEntry> scope = scope(fields.get("scope"));
    Map<String, Quantity> requests = new LinkedHashMap<>();
    Map<String, Quantity> limits = new LinkedHashMap<>();
    resources(fields.get("resources"), requests, limits);
    Optional<String> rdt = Optional.empty();
    Optional<String> blockio = Optional.empty();
    Map<?, ?> classes = optionalObject(fields.get("classes"), "classes", CLASS_FIELDS);
    if (classes != null) {
      rdt = Optional.ofNullable(text(classes.get("rdt"), "classes.rdt"));
      blockio = Optional.ofNullable(text(classes.get("blockio"), "classes.blockio"));
    }
    Optional<Quantity> toptier =
        Optional.ofNullable(quantity(fields.get("toptierLimit"), "toptierLimit", Quantity::memory));
    if (problems.size() != before) {
      return Optional.empty();
    }
    return Optional.of(new AdjustmentSpec(scope, requests, limits, rdt, blockio, toptier));
  }

  private List<ScopeEntry> scope(@Nullable Object scope) {
    if (!(scope instanceof List<?> list) || list.isEmpty()) {
      problems.add(
          where + "scope: required, a list of {nodes, containers} with at least one entry");
      return List.of();
    }
    List<ScopeEntry> entries = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String field = "scope[" + i + "]";
      Map<?, ?> entry = object(list.get(i), field, SCOPE_FIELDS);
      if (entry != null) {
        List<String> nodes = list(entry.get("nodes"), field + ".nodes", this::nodeName);
        List<ContainerExpression> containers =
            list(entry.get("containers"), field + ".containers", this::expression);
        entries.add(new ScopeEntry(nodes, containers));
      }
    }
    return entries;
  }

  private @Nullable String nodeName(Object node, String field) {
    String name = text(node, field);
    if ("".equals(name)) {
      problems.add(where + field + ": empty; expected a node name or a prefix ending in *");
      return null;
    }
    return name;
  }

  private @Nullable ContainerExpression expression(Object node, String field) {
    Map<?, ?> fields = object(node, field, EXPRESSION_FIELDS);
    if (fields == null) {
      return null;
    }
    String key = text(fields.get("key"), field + ".key");
    if (fields.get("key") == null || "".equals(key)) {
      problems.add(where + field + ".key: required, e.g. name, labels/app or pod/labels/app");
    }
    String operator = text(fields.get("operator"), field + ".operator");
    List<String> values = list(fields.get("values"), field + ".values", this::text);
    try {
      return new ContainerExpression(
          Objects.requireNonNullElse(key, ""),
          Operator.parse(Objects.requireNonNullElse(operator, "")),
          values);
    } catch (IllegalArgumentException e) {
      problems.add(where + field + ": " + e.getMessage());
      return null;
    }
  }

  private void resources(
      @Nullable Object node, Map<String, Quantity> requests, Map<String, Quantity> limits) {
    Map<?, ?> resources = optionalObject(node, "resources", RESOURCE_FIELDS);
    if (resources == null) {
      return;
    }
    int before = problems.size();
    amounts(resources.get("requests"), "resources.requests", requests);
    amounts(resources.get("limits"), "resources.limits", limits);
    if (problems.size() != before) {
      return;
    }
    if (requests.isEmpty() && limits.isEmpty()) {
      problems.add(where + "resources: sets no requests or limits of cpu or memory");
    }
    for (String resource : AdjustmentSpec.RESOURCES) {
      Quantity request = requests.get(resource);
      Quantity limit = limits.get(resource);
      // An explicit limit counts even when 0: Kubernetes, too, rejects a limit 0 below a request.
      if (request != null && limit != null && limit.value() < request.value()) {
        problems.add(
            where
                + "resources."
                + resource
                + ": the limit "
                + describe(resource, limit)
                + " is below the request "
                + describe(resource, request)
                + "; a limit must be at least the request");
      }
    }
  }

  private void amounts(@Nullable Object node, String field, Map<String, Quantity> out) {
    Map<?, ?> amounts = optionalObject(node, field, RESOURCE_NAMES);
    if (amounts == null) {
      return;
    }
    for (String resource : AdjustmentSpec.RESOURCES) {
      Quantity q =
          quantity(
              amounts.get(resource),
              field + "." + resource,
              resource.equals("cpu") ? Quantity::cpu : Quantity::memory);
      if (q != null) {
        out.put(resource, q);
      }
    }
  }

  private @Nullable Quantity quantity(
      @Nullable Object node, String field, Function<String, Quantity> parse) {
    if (node == null) {
      return null;
    }
    String text;
    if (node instanceof String s) {
      text = s;
    } else if (node instanceof Number n) {
      text = PlainTree.numberText(n);
    } else {
      problems.add(
          where
              + field
              + ": expected a quantity (a string such as \"500m\" or \"1Gi\", or a number), got "
              + PlainTree.render(node));
      return null;
    }
    try {
      return parse.apply(text);
    } catch (IllegalArgumentException e) {
      problems.add(where + field + ": " + e.getMessage());
      return null;
    }
  }

  /** The map {@code node}, or null (reported) if it is no object or has unknown fields. */
  private @Nullable Map<?, ?> object(@Nullable Object node, String field, Set<String> allowed) {
    if (!(node instanceof Map<?, ?> map)) {
      problems.add(where + field + ": expected an object, got " + PlainTree.type(node));
      return null;
    }
    List<Object> unknown = new ArrayList<>();
    for (Object key : map.keySet()) {
      if (!allowed.contains(key)) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      problems.add(
          where
              + field
              + ": unknown "
              + unknown
              + ", allowed: "
              + allowed.stream().sorted().toList());
      return null;
    }
    return map;
  }

  private @Nullable Map<?, ?> optionalObject(
      @Nullable Object node, String field, Set<String> allowed) {
    return node == null ? null : object(node, field, allowed);
  }

  private <T> List<T> list(@Nullable Object node, String field, Element<T> element) {
    if (node == null) {
      return List.of();
    }
    if (!(node instanceof List<?> list)) {
      problems.add(where + field + ": expected a list, got " + PlainTree.type(node));
      return List.of();
    }
    List<T> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      Object item = list.get(i);
      String itemField = field + "[" + i + "]";
      if (item == null) {
        problems.add(where + itemField + ": null is not allowed");
        continue;
      }
      T value = element.read(item, itemField);
      if (value != null) {
        out.add(value);
      }
    }
    return out;
  }

  /** Reads one list element (not null) at {@code field}; null if it is reported as wrong. */
  private interface Element<T> {
    @Nullable T read(Object node, String field);
  }

  /** The string {@code node}; null if absent or (reported) not a string. */
  private @Nullable String text(@Nullable Object node, String field) {
    if (node == null) {
      return null;
    }
    if (!(node instanceof String s)) {
      problems.add(where + field + ": expected a string, got " + PlainTree.render(node));
      return null;
    }
    return s;
  }

  private static String describe(String resource, Quantity q) {
    return resource.equals("cpu") ? q.value() + "m" : q.value() + " bytes";
  }
}
