package io.criresmgr.cache.adjustment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.ResourceOverride;
import io.criresmgr.cache.ResourceOverride.Amounts;
import io.criresmgr.cache.affinity.Expression;
import io.criresmgr.cache.affinity.Expression.Operator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class AdjustmentParserTest {
  private static final String SCOPE = "\"scope\": [{\"nodes\": [\"n1\"]}]";
  private static final String OPERATORS =
      "expected one of Equals, NotEqual, In, NotIn, Exists, NotExist, AlwaysTrue, Matches,"
          + " MatchesNot, MatchesAny, MatchesNone";

  /** {@code json} with single quotes for double quotes, to keep the payloads readable. */
  private static AdjustmentSet parse(String json) throws AdjustmentException {
    return AdjustmentParser.parse("node-1", json.replace('\'', '"'));
  }

  /** The message of the rejection of {@code json}, asserting it is decodable JSON. */
  private static String problem(String json) {
    AdjustmentException e = assertThrows(AdjustmentException.class, () -> parse(json));
    assertFalse(e.undecodable(), e.getMessage());
    return e.getMessage();
  }

  /** The message for one adjustment {@code a} with {@code body} inside its spec. */
  private static String specProblem(String body) {
    return problem("{'a': {" + body + "}}");
  }

  @Test
  void readsAFullSpec() throws Exception {
    AdjustmentSet set =
        parse(
            "{'fast': {'scope': [{'nodes': ['n1', 'worker-*'],"
                + " 'containers': [{'key': 'pod/name', 'operator': 'Equals', 'values': ['web']},"
                + " {'key': 'labels/app', 'operator': 'Exists'}]}, {}],"
                + " 'resources': {'requests': {'cpu': '500m', 'memory': '123Mi'},"
                + " 'limits': {'cpu': 2, 'memory': '129e6'}},"
                + " 'classes': {'rdt': 'gold', 'blockio': 'slowreads'},"
                + " 'toptierLimit': '1.5Gi'}}");
    assertEquals("node-1", set.nodeName());
    AdjustmentSpec spec = set.specs().get("fast");
    Adjustment expected =
        new Adjustment(
            "fast",
            Optional.of(
                new ResourceOverride(
                    Optional.of(new Amounts(500, 2000)),
                    Optional.of(new Amounts(123L << 20, 129_000_000L)))),
            "gold",
            "slowreads",
            OptionalLong.of(3L << 29));
    assertEquals(expected, spec.effect());
    assertEquals(
        List.of(
            new AdjustmentScope(
                List.of("n1", "worker-*"),
                List.of(
                    new Expression("pod/name", Operator.EQUALS, List.of("web")),
                    new Expression("labels/app", Operator.EXISTS, List.of()))),
            new AdjustmentScope(List.of(), List.of())),
        spec.scope());
  }

  @Test
  void readsTheToptierLimitAsANumber() throws Exception {
    AdjustmentSet set = parse("{'a': {" + SCOPE + ", 'toptierLimit': 1073741824}}");
    Adjustment a = set.specs().get("a").effect();
    assertEquals(OptionalLong.of(1L << 30), a.toptierLimitBytes());
    assertEquals(Optional.empty(), a.resources());
    assertEquals("", a.rdtClass());
    assertEquals("", a.blockIoClass());
  }

  @Test
  void aMissingRequestIsTheLimit() throws Exception {
    Adjustment a =
        parse("{'a': {" + SCOPE + ", 'resources': {'limits': {'cpu': '2', 'memory': '1Gi'}}}}")
            .specs()
            .get("a")
            .effect();
    assertEquals(
        Optional.of(
            new ResourceOverride(
                Optional.of(new Amounts(2000, 2000)),
                Optional.of(new Amounts(1L << 30, 1L << 30)))),
        a.resources());
  }

  @Test
  void aRequestWithoutLimitLeavesTheLimitUnset() throws Exception {
    Adjustment a =
        parse("{'a': {" + SCOPE + ", 'resources': {'requests': {'cpu': '250m'}}}}")
            .specs()
            .get("a")
            .effect();
    assertEquals(
        Optional.of(new ResourceOverride(Optional.of(new Amounts(250, 0)), Optional.empty())),
        a.resources());
  }

  @Test
  void aLimitBelowTheRequestIsAnError() {
    assertEquals(
        "adjustment a: resources.cpu: the limit 1000m is below the request 2000m;"
            + " a limit must be at least the request",
        specProblem(SCOPE + ", 'resources': {'requests': {'cpu': '2'}, 'limits': {'cpu': '1'}}"));
    assertEquals(
        "adjustment a: resources.memory: the limit 1048576 bytes is below the request"
            + " 2097152 bytes; a limit must be at least the request",
        specProblem(
            SCOPE + ", 'resources': {'requests': {'memory': '2Mi'}, 'limits': {'memory': '1Mi'}}"));
  }

  @Test
  void anExplicitZeroLimitIsBelowARequest() throws Exception {
    assertEquals(
        "adjustment a: resources.cpu: the limit 0m is below the request 2000m;"
            + " a limit must be at least the request",
        specProblem(SCOPE + ", 'resources': {'requests': {'cpu': '2'}, 'limits': {'cpu': '0'}}"));
    Adjustment zero =
        parse("{'a': {" + SCOPE + ", 'resources': {'limits': {'cpu': '0'}}}}")
            .specs()
            .get("a")
            .effect();
    assertEquals(
        Optional.of(new ResourceOverride(Optional.of(new Amounts(0, 0)), Optional.empty())),
        zero.resources());
  }

  @Test
  void onlyCpuAndMemoryMayBeAdjusted() {
    assertEquals(
        "adjustment a: resources.requests: unknown [nvidia.com/gpu], allowed: [cpu, memory]",
        specProblem(SCOPE + ", 'resources': {'requests': {'nvidia.com/gpu': '1', 'cpu': '1'}}"));
    assertEquals(
        "adjustment a: resources.limits: unknown [hugepages-2Mi], allowed: [cpu, memory]",
        specProblem(SCOPE + ", 'resources': {'limits': {'hugepages-2Mi': '2Mi'}}"));
  }

  @Test
  void resourcesWithoutAmountsAreAnError() {
    assertEquals(
        "adjustment a: resources: sets no requests or limits of cpu or memory",
        specProblem(SCOPE + ", 'resources': {}"));
  }

  @Test
  void unknownFieldsAreNamedWithTheAllowedOnes() {
    assertEquals(
        "adjustment a: spec: unknown [cpus], allowed: [classes, resources, scope, toptierLimit]",
        specProblem(SCOPE + ", 'cpus': 2"));
    assertEquals(
        "adjustment a: scope[0]: unknown [node], allowed: [containers, nodes]",
        specProblem("'scope': [{'node': ['n1']}]"));
    assertEquals(
        "adjustment a: scope[0].containers[0]: unknown [op], allowed: [key, operator, values]",
        specProblem("'scope': [{'containers': [{'key': 'name', 'op': 'Equals'}]}]"));
    assertEquals(
        "adjustment a: resources: unknown [request], allowed: [limits, requests]",
        specProblem(SCOPE + ", 'resources': {'request': {'cpu': '1'}}"));
    assertEquals(
        "adjustment a: classes: unknown [rdtClass], allowed: [blockio, rdt]",
        specProblem(SCOPE + ", 'classes': {'rdtClass': 'gold'}"));
  }

  @Test
  void theScopeIsRequired() {
    String required =
        "adjustment a: scope: required, a list of {nodes, containers} with at least one entry";
    assertEquals(required, specProblem("'classes': {'rdt': 'gold'}"));
    assertEquals(required, specProblem("'scope': []"));
    assertEquals(required, specProblem("'scope': {'nodes': ['n1']}"));
    assertEquals(
        "adjustment a: scope[0]: expected an object, got STRING", specProblem("'scope': ['n1']"));
  }

  @Test
  void aBadOperatorListsTheOperators() {
    assertEquals(
        "adjustment a: scope[0].containers[0]: invalid operator \"Is\": " + OPERATORS,
        specProblem(
            "'scope': [{'containers': [{'key': 'name', 'operator': 'Is', 'values': ['x']}]}]"));
    assertEquals(
        "adjustment a: scope[0].containers[0]: invalid operator \"\": " + OPERATORS,
        specProblem("'scope': [{'containers': [{'key': 'name'}]}]"));
  }

  @Test
  void anOperatorTakesItsNumberOfValues() {
    assertEquals(
        "adjustment a: scope[0].containers[0]: Equals takes exactly one value, got 2",
        specProblem(
            "'scope': [{'containers': [{'key': 'name', 'operator': 'Equals',"
                + " 'values': ['x', 'y']}]}]"));
    assertEquals(
        "adjustment a: scope[0].containers[0]: Exists takes no values, got [x]",
        specProblem(
            "'scope': [{'containers': [{'key': 'name', 'operator': 'Exists', 'values': ['x']}]}]"));
  }

  @Test
  void badQuantitiesNameTheFieldAndTheForms() {
    assertEquals(
        "adjustment a: resources.requests.cpu: invalid CPU quantity \"2 cores\": unknown suffix"
            + " \" cores\"; expected cores such as 2 or 0.5, or milli-cores such as 500m",
        specProblem(SCOPE + ", 'resources': {'requests': {'cpu': '2 cores'}}"));
    assertEquals(
        "adjustment a: resources.limits.memory: invalid memory quantity \"-1Gi\": negative;"
            + " expected bytes such as 128974848, 129e6, 129M, 123Mi or 1.5Gi"
            + " (suffixes k M G T P E, Ki Mi Gi Ti Pi Ei)",
        specProblem(SCOPE + ", 'resources': {'limits': {'memory': '-1Gi'}}"));
    assertTrue(
        specProblem(SCOPE + ", 'toptierLimit': 'lots'")
            .startsWith("adjustment a: toptierLimit: invalid memory quantity \"lots\": not a"),
        "toptierLimit");
  }

  @Test
  void numbersBeyondADoubleAreRefusedNamedAsWritten() {
    // As written, as the agent names them (docs/adr/0014-one-adjustment-model.md): a double
    // would read 1e400 as Infinity and 1e-400 as 0, a valid request.
    assertEquals(
        "adjustment a: resources.requests.memory: invalid memory quantity \"1e400\": unknown"
            + " suffix \"e400\"; expected bytes such as 128974848, 129e6, 129M, 123Mi or 1.5Gi"
            + " (suffixes k M G T P E, Ki Mi Gi Ti Pi Ei)",
        specProblem(SCOPE + ", 'resources': {'requests': {'memory': 1e400}}"));
    assertTrue(
        specProblem(SCOPE + ", 'resources': {'requests': {'cpu': 1e-400}}")
            .startsWith("adjustment a: resources.requests.cpu: invalid CPU quantity \"1e-400\":"),
        "a quantity below a double's range");
    assertEquals(
        "adjustment a: classes.rdt: expected a string, got 1e400",
        specProblem(SCOPE + ", 'classes': {'rdt': 1e400}"));
    for (String huge : new String[] {"-1e400", "100111111E11110111000"}) {
      assertTrue(
          specProblem(SCOPE + ", 'toptierLimit': " + huge)
              .startsWith("adjustment a: toptierLimit: invalid memory quantity \"" + huge + "\""),
          huge);
    }
  }

  @Test
  void reportsEveryBadSpecOnItsOwnLine() {
    String message =
        problem(
            "{'b': {'scope': [], 'classes': {'rdt': 'gold'}},"
                + " 'ok': {"
                + SCOPE
                + "},"
                + " 'a': {"
                + SCOPE
                + ", 'resources': {'limits': {'cpu': 'x'}}, 'classes': {'rdt': 1}}}");
    assertEquals(
        List.of(
            "adjustment b: scope: required, a list of {nodes, containers} with at least one entry",
            "adjustment a: resources.limits.cpu: invalid CPU quantity \"x\": not a number;"
                + " expected cores such as 2 or 0.5, or milli-cores such as 500m",
            "adjustment a: classes.rdt: expected a string, got 1"),
        message.lines().toList());
  }

  @Test
  void nodesAreStrings() {
    assertEquals(
        "adjustment a: scope[0].nodes[0]: expected a string, got 5",
        specProblem("'scope': [{'nodes': [5]}]"));
    assertEquals(
        "adjustment a: scope[0].nodes: expected a list, got STRING",
        specProblem("'scope': [{'nodes': 'n1'}]"));
  }

  @Test
  void nullsInListsAreErrorsNamingTheirIndex() {
    assertEquals(
        "adjustment a: scope[0].nodes[1]: null is not allowed",
        specProblem("'scope': [{'nodes': ['n1', null]}]"));
    assertEquals(
        "adjustment a: scope[0].containers[0].values[0]: null is not allowed",
        specProblem(
            "'scope': [{'containers': [{'key': 'name', 'operator': 'In', 'values': [null]}]}]"));
  }

  @Test
  void trailingContentIsUndecodable() {
    AdjustmentException e =
        assertThrows(AdjustmentException.class, () -> parse("{'a': {" + SCOPE + "}} {}"));
    assertTrue(e.undecodable());
    assertTrue(e.getMessage().startsWith("adjustments: not JSON: Trailing token"), e.getMessage());
  }

  @Test
  void anEmptyNameIsAnError() {
    assertEquals("adjustments: an adjustment has an empty name", problem("{'': {" + SCOPE + "}}"));
  }

  @Test
  void aNonObjectSpecIsAnError() {
    assertEquals(
        "adjustment a: spec: expected an object, got ARRAY",
        problem("{'a': [], 'b': {" + SCOPE + "}}"));
  }

  @Test
  void nonJsonIsUndecodable() {
    AdjustmentException e = assertThrows(AdjustmentException.class, () -> parse("{'a': "));
    assertTrue(e.undecodable());
    assertTrue(e.getMessage().startsWith("adjustments: not JSON: "), e.getMessage());
  }

  @Test
  void nonObjectsAreUndecodable() {
    for (String json : List.of("[]", "'a'", "42", "null", "")) {
      AdjustmentException e = assertThrows(AdjustmentException.class, () -> parse(json), json);
      assertTrue(e.undecodable(), json);
      assertEquals("adjustments: expected a JSON object of name to spec", e.getMessage(), json);
    }
  }

  @Test
  void anEmptyObjectIsAnEmptySet() throws Exception {
    AdjustmentSet set = parse("{}");
    assertEquals(new AdjustmentSet("node-1", java.util.Map.of()), set);
    assertTrue(set.specs().isEmpty());
  }
}
