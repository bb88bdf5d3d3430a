package io.criresmgr.adjustment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AdjustmentValidatorTest {
  private static final String FORMS_CPU =
      "expected cores such as 2 or 0.5, or milli-cores such as 500m";
  private static final List<Object> SCOPE = List.of(Map.of("nodes", List.of("n1")));

  /** An ordered map of {@code keysAndValues} (values may be null). */
  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  /** A list that may hold nulls. */
  private static List<Object> list(Object... items) {
    return new ArrayList<>(Arrays.asList(items));
  }

  private static List<String> problems(Object spec) {
    AdjustmentValidator.Checked checked = AdjustmentValidator.check("a", spec);
    assertTrue(checked.specs().isEmpty(), "an invalid spec is left out");
    return checked.problems();
  }

  private static String problem(Object spec) {
    List<String> problems = problems(spec);
    assertEquals(1, problems.size(), problems.toString());
    return problems.get(0);
  }

  private static AdjustmentSpec valid(Object spec) {
    AdjustmentValidator.Checked checked = AdjustmentValidator.check("a", spec);
    assertEquals(List.of(), checked.problems());
    return checked.specs().get("a");
  }

  @Test
  void readsAFullSpecKeepingQuantitiesAsWritten() {
    AdjustmentSpec spec =
        valid(
            map(
                "scope",
                List.of(
                    map(
                        "nodes",
                        List.of("n1", "w-*"),
                        "containers",
                        List.of(map("key", "name", "operator", "In", "values", List.of("x"))))),
                "resources",
                map(
                    "requests", map("cpu", "500m", "memory", new BigDecimal("1073741824")),
                    "limits", map("cpu", 2L, "memory", 2.5e9)),
                "classes",
                map("rdt", "gold", "blockio", "slow"),
                "toptierLimit",
                "1.5Gi"));
    assertEquals(
        new AdjustmentSpec(
            List.of(
                new ScopeEntry(
                    List.of("n1", "w-*"),
                    List.of(new ContainerExpression("name", Operator.IN, List.of("x"))))),
            Map.of(
                "cpu", new Quantity("500m", 500), "memory", new Quantity("1073741824", 1L << 30)),
            Map.of(
                "cpu", new Quantity("2", 2000), "memory", new Quantity("2.5E+9", 2_500_000_000L)),
            Optional.of("gold"),
            Optional.of("slow"),
            Optional.of(new Quantity("1.5Gi", 3L << 29))),
        spec);
  }

  @Test
  void numbersAndStringsAreTheSameQuantities() {
    AdjustmentSpec numbers =
        valid(map("scope", SCOPE, "resources", map("requests", map("cpu", 0.5, "memory", 1000))));
    AdjustmentSpec strings =
        valid(
            map("scope", SCOPE, "resources", map("requests", map("cpu", "0.5", "memory", "1e3"))));
    assertEquals(numbers.requests().get("cpu").value(), strings.requests().get("cpu").value());
    assertEquals(1000, numbers.requests().get("memory").value());
    assertEquals(1000, strings.requests().get("memory").value());
    assertEquals("0.5", numbers.requests().get("cpu").text());
    assertEquals(
        "adjustment a: resources.requests.cpu: expected a quantity (a string such as \"500m\" or"
            + " \"1Gi\", or a number), got true",
        problem(map("scope", SCOPE, "resources", map("requests", map("cpu", true)))));
    assertEquals(
        "adjustment a: resources.requests.memory: invalid memory quantity \"-1\": negative;"
            + " expected bytes such as 128974848, 129e6, 129M, 123Mi or 1.5Gi"
            + " (suffixes k M G T P E, Ki Mi Gi Ti Pi Ei)",
        problem(map("scope", SCOPE, "resources", map("requests", map("memory", -1)))));
    for (double d : new double[] {Double.POSITIVE_INFINITY, Double.NaN}) {
      assertTrue(
          problem(map("scope", SCOPE, "toptierLimit", d))
              .startsWith("adjustment a: toptierLimit: invalid memory quantity \"" + d + "\": "),
          "" + d);
    }
  }

  @Test
  void namesEachKindOfProblem() {
    assertEquals("adjustment a: spec: expected an object, got ARRAY", problem(List.of()));
    assertEquals("adjustment a: spec: expected an object, got NULL", problem(null));
    assertEquals(
        "adjustment a: spec: unknown [cpus], allowed: [classes, resources, scope, toptierLimit]",
        problem(map("scope", SCOPE, "cpus", 2)));
    assertEquals(
        "adjustment a: scope: required, a list of {nodes, containers} with at least one entry",
        problem(map("scope", List.of())));
    assertEquals(
        "adjustment a: scope[0]: expected an object, got STRING",
        problem(map("scope", List.of("n1"))));
    assertEquals(
        "adjustment a: scope[0].nodes: expected a list, got STRING",
        problem(map("scope", List.of(map("nodes", "n1")))));
    assertEquals(
        "adjustment a: scope[0].nodes[1]: null is not allowed",
        problem(map("scope", List.of(map("nodes", list("n1", null))))));
    assertEquals(
        "adjustment a: scope[0].nodes[0]: empty; expected a node name or a prefix ending in *",
        problem(map("scope", List.of(map("nodes", List.of(""))))));
    assertEquals(
        "adjustment a: scope[0].containers[0].key: required, e.g. name, labels/app or"
            + " pod/labels/app",
        problem(map("scope", List.of(map("containers", List.of(map("operator", "AlwaysTrue")))))));
    assertEquals(
        "adjustment a: scope[0].containers[0]: invalid operator \"Is\": expected one of "
            + String.join(", ", Operator.LABELS),
        problem(expression("Is", List.of("x"))));
    assertEquals(
        "adjustment a: scope[0].containers[0]: Matches takes exactly one value, got 0",
        problem(expression("Matches", List.of())));
    assertTrue(
        problem(expression("MatchesAny", List.of("[x")))
            .startsWith("adjustment a: scope[0].containers[0]: invalid pattern \"[x\": "));
    assertEquals(
        "adjustment a: resources.limits: unknown [hugepages-2Mi], allowed: [cpu, memory]",
        problem(map("scope", SCOPE, "resources", map("limits", map("hugepages-2Mi", "2Mi")))));
    assertEquals(
        "adjustment a: resources: sets no requests or limits of cpu or memory",
        problem(map("scope", SCOPE, "resources", map())));
    assertEquals(
        "adjustment a: resources.memory: the limit 1048576 bytes is below the request 2097152"
            + " bytes; a limit must be at least the request",
        problem(
            map(
                "scope",
                SCOPE,
                "resources",
                map("requests", map("memory", "2Mi"), "limits", map("memory", "1Mi")))));
    assertEquals(
        "adjustment a: classes.rdt: expected a string, got 1",
        problem(map("scope", SCOPE, "classes", map("rdt", 1))));
    assertEquals(
        "adjustment a: toptierLimit: expected a quantity (a string such as \"500m\" or \"1Gi\", or"
            + " a number), got a list",
        problem(map("scope", SCOPE, "toptierLimit", List.of())));
  }

  private static Map<String, Object> expression(String operator, List<String> values) {
    return map(
        "scope",
        List.of(
            map(
                "containers",
                List.of(map("key", "name", "operator", operator, "values", values)))));
  }

  @Test
  void aMissingRequestIsTheLimitSoOnlyAnExplicitRequestCanExceedIt() {
    AdjustmentSpec spec = valid(map("scope", SCOPE, "resources", map("limits", map("cpu", "1"))));
    assertEquals(Map.of(), spec.requests());
    assertEquals(
        "adjustment a: resources.cpu: the limit 0m is below the request 2000m; a limit must be at"
            + " least the request",
        problem(
            map(
                "scope",
                SCOPE,
                "resources",
                map("requests", map("cpu", 2), "limits", map("cpu", "0")))));
  }

  @Test
  void nullOptionalFieldsAreAbsent() {
    AdjustmentSpec spec =
        valid(
            map(
                "scope",
                list(map("nodes", null, "containers", null)),
                "classes",
                null,
                "resources",
                null,
                "toptierLimit",
                null));
    assertEquals(List.of(new ScopeEntry(List.of(), List.of())), spec.scope());
    assertEquals(Optional.empty(), spec.toptierLimit());
  }

  @Test
  void reportsEveryProblemOfEverySpec() {
    Map<String, Object> specs =
        map(
            "b", map("classes", map("rdt", "gold")),
            "ok", map("scope", SCOPE),
            "", map("scope", SCOPE),
            "a",
                map(
                    "scope", List.of(map("nodes", List.of(5))),
                    "resources", map("limits", map("cpu", "x")),
                    "classes", map("rdt", 1)));
    AdjustmentValidator.Checked checked = AdjustmentValidator.check(specs);
    assertEquals(
        List.of(
            "adjustment b: scope: required, a list of {nodes, containers} with at least one entry",
            "adjustments: an adjustment has an empty name",
            "adjustment a: scope[0].nodes[0]: expected a string, got 5",
            "adjustment a: resources.limits.cpu: invalid CPU quantity \"x\": not a number; "
                + FORMS_CPU,
            "adjustment a: classes.rdt: expected a string, got 1"),
        checked.problems());
    assertEquals(List.of("ok"), List.copyOf(checked.specs().keySet()));
  }
}
