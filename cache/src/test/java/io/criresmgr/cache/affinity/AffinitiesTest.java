package io.criresmgr.cache.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.affinity.Expression.Operator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class AffinitiesTest {
  private static final List<String> NAMES = List.of("c1", "c2", "c3", "c4", "c5");

  private static List<Affinity> of(String container, Map<String, String> annotations) {
    Pod pod = Subjects.pod("p", annotations);
    return Affinities.of(Subjects.container(pod, container), pod);
  }

  private static Expression scope() {
    return new Expression("pod/id", Operator.EQUALS, List.of("sandbox-p"));
  }

  // Reference TestSimpleParsingSymmetry: the peers each container gets from the simple syntax.
  static Stream<Arguments> simpleSources() {
    return Stream.of(
        Arguments.of("c1: [ c2 ]", Map.of("c1", Set.of("c2"), "c2", Set.of("c1"))),
        Arguments.of(
            "c1: [ c2, c3, c4, c5 ]",
            Map.of(
                "c1", Set.of("c2", "c3", "c4", "c5"),
                "c2", Set.of("c1"),
                "c3", Set.of("c1"),
                "c4", Set.of("c1"),
                "c5", Set.of("c1"))),
        Arguments.of(
            "\nc1: [ c2 ]\nc2: [ c3, c4, c5 ]\nc4: [ c5 ]\n",
            Map.of(
                "c1", Set.of("c2"),
                "c2", Set.of("c1", "c3", "c4", "c5"),
                "c3", Set.of("c2"),
                "c4", Set.of("c2", "c5"),
                "c5", Set.of("c2", "c4"))));
  }

  @ParameterizedTest
  @MethodSource("simpleSources")
  void simpleSyntaxIsSymmetric(String source, Map<String, Set<String>> expected) {
    Map<String, Set<String>> found = new TreeMap<>();
    for (String name : NAMES) {
      for (Affinity a : of(name, Map.of(Affinities.AFFINITY, source))) {
        assertEquals(scope(), a.scope());
        assertEquals("name", a.match().key());
        assertEquals(
            a.match().values().size() == 1 ? Operator.EQUALS : Operator.IN, a.match().operator());
        assertEquals(1, a.weight());
        found.computeIfAbsent(name, k -> new TreeSet<>()).addAll(a.match().values());
      }
    }
    assertEquals(new TreeMap<>(expected), found);
  }

  @Test
  void simpleAntiAffinityHasWeightMinusOneAndBothSpellingsWork() {
    assertEquals(
        List.of(new Affinity(scope(), new Expression("name", Operator.EQUALS, List.of("c1")), -1)),
        of("c2", Map.of(Affinities.NRI_ANTI_AFFINITY, "c1: [c2]")));
    assertEquals(
        List.of(
            new Affinity(scope(), new Expression("name", Operator.IN, List.of("c2", "c3")), 1),
            new Affinity(scope(), new Expression("name", Operator.EQUALS, List.of("c4")), -1)),
        of(
            "c1",
            Map.of(Affinities.NRI_AFFINITY, "c1: [c2, c3]", Affinities.ANTI_AFFINITY, "c4: [c1]")));
  }

  @Test
  void theCriSpellingWinsOverTheNriOne() {
    assertEquals(
        List.of(new Affinity(scope(), new Expression("name", Operator.EQUALS, List.of("c2")), 1)),
        of("c1", Map.of(Affinities.AFFINITY, "c1: [c2]", Affinities.NRI_AFFINITY, "c1: [c3]")));
  }

  @Test
  void fullSyntaxDefaultsNegationAndClamping() {
    String source =
        """
        c1:
          - match: {key: name, operator: In, values: [c2, c3]}
          - scope: {key: pod/namespace, operator: Equals, values: [default]}
            match: {key: labels/app, operator: Exists}
            weight: 5
          - scope: {operator: AlwaysTrue}
            match: {key: tags/AVX512, operator: Exists}
            weight: 5000
          - Match: {Key: name, Operator: Equals, Values: [c9]}
            weight: 0
        c2:
          - match: {key: name, operator: Equals, values: [c1]}""";
    Expression inNames = new Expression("name", Operator.IN, List.of("c2", "c3"));
    Expression ns = new Expression("pod/namespace", Operator.EQUALS, List.of("default"));
    Expression app = new Expression("labels/app", Operator.EXISTS, List.of());
    Expression all = new Expression("", Operator.ALWAYS_TRUE, List.of());
    Expression avx = new Expression("tags/AVX512", Operator.EXISTS, List.of());
    Expression c9 = new Expression("name", Operator.EQUALS, List.of("c9"));
    assertEquals(
        List.of(
            new Affinity(scope(), inNames, 1),
            new Affinity(ns, app, 5),
            new Affinity(all, avx, 1000),
            new Affinity(scope(), c9, 1)),
        of("c1", Map.of(Affinities.AFFINITY, source)));
    assertEquals(
        List.of(
            new Affinity(scope(), inNames, -1),
            new Affinity(ns, app, -5),
            new Affinity(all, avx, -1000),
            new Affinity(scope(), c9, -1)),
        of("c1", Map.of(Affinities.ANTI_AFFINITY, source)));
    assertEquals(List.of(), of("c3", Map.of(Affinities.AFFINITY, source)));
    assertEquals(
        List.of(new Affinity(scope(), new Expression("name", Operator.IN, List.of("x")), -7)),
        of(
            "c1",
            Map.of(
                Affinities.ANTI_AFFINITY,
                "c1: [{match: {key: name, operator: In, values: [x]}, weight: 7}]")));
  }

  @Test
  void noAnnotationsNoAffinities() {
    assertEquals(List.of(), of("c1", Map.of()));
    assertEquals(List.of(), of("c1", Map.of(Affinities.AFFINITY, "")));
    assertEquals(List.of(), of("c1", Map.of(Affinities.AFFINITY, "c1: []")));
    assertEquals(List.of(), of("c1", Map.of(Affinities.AFFINITY, "c1: [c1]")));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "c1 | invalid value \"c1\": expected a mapping of container names to lists of container"
            + " names or to lists of {scope, match, weight}",
        "c1: c2 | c1: invalid value \"c2\": expected a mapping of container names to lists of"
            + " container names or to lists of {scope, match, weight}",
        "'c1: [c2, {match: {key: name, operator: Exists}}]' | c1[0]: invalid value \"c2\":"
            + " expected a mapping with [scope, match, weight]",
        "'c1: [{mach: {key: name, operator: Exists}}]' | c1[0].mach: unknown key, expected one of"
            + " [scope, match, weight]",
        "'c1: [{weight: 2}]' | c1[0]: match is missing; expected {scope, match, weight}",
        "'c1: [{match: {key: name, operator: Exists}, weight: high}]' | c1[0].weight: invalid"
            + " value \"high\": expected an integer in [-1000, 1000]",
        "'c1: [{match: {key: name, operator: Exists}, weight: 1.5}]' | c1[0].weight: invalid"
            + " value 1.5: expected an integer in [-1000, 1000]",
        "'c1: [{match: {key: name, op: Exists}}]' | c1[0].match.op: unknown key, expected one of"
            + " [key, operator, values]",
        "'c1: [{match: {key: name}}]' | c1[0].match: operator is missing or not a string",
        "'c1: [{match: {key: name, operator: Equal, values: [a]}}]' | c1[0].match: invalid"
            + " operator \"Equal\": expected one of Equals, NotEqual, In, NotIn, Exists,"
            + " NotExist, AlwaysTrue, Matches, MatchesNot, MatchesAny, MatchesNone",
        "'c1: [{match: {operator: Exists}}]' | c1[0].match: key is missing",
        "'c1: [{match: {key: [a], operator: Exists}}]' | c1[0].match.key: invalid value"
            + " [\"a\"]: expected a string",
        "'c1: [{match: {key: name, operator: Equals, values: [a, b]}}]' | c1[0].match: Equals"
            + " takes exactly one value, got 2",
        "'c1: [{match: {key: name, operator: Exists, values: [a]}}]' | c1[0].match: Exists takes"
            + " no values, got [a]",
        "'c1: [{match: {key: name, operator: In, values: a}}]' | c1[0].match.values: invalid"
            + " value \"a\": expected a list of strings",
        "'c1: [{match: {key: name, operator: In, values: [{a: b}]}}]' | c1[0].match.values:"
            + " invalid value {\"a\":\"b\"}: expected a string",
        "'c1: [{scope: {key: name, operator: Matches, values: [\"[\"]}, match: {key: name,"
            + " operator: Exists}}]' | c1[0].scope: invalid pattern \"[\": character class at 0"
            + " is empty, unterminated or has a bad range (syntax: *, ?, [a-z], [^a-z], \\c)",
        "'c2: [{match: {key: name, operator: Exists}, match: {key: id, operator: Exists}}]' |"
            + " not YAML: Duplicate field 'match'; expected a mapping of container names to lists"
            + " of container names or to lists of {scope, match, weight}",
      })
  void malformedAnnotationsAreRejected(String value, String expected) {
    String message =
        assertThrows(
                IllegalArgumentException.class, () -> of("c1", Map.of(Affinities.AFFINITY, value)))
            .getMessage();
    assertEquals(
        "annotation cri-resource-manager.intel.com/affinity: " + expected.strip(), message);
  }

  @Test
  void scoresSumTheWeightsOfMatchingPeersInScopeButNotSelf() {
    Pod pod =
        Subjects.pod(
            "p", Map.of(Affinities.AFFINITY, "c1: [c2, c3]", Affinities.ANTI_AFFINITY, "c1: [c3]"));
    Pod other = Subjects.pod("q", Map.of());
    Container c1 = Subjects.container(pod, "c1");
    List<Affinity> affinities = Affinities.of(c1, pod);
    assertEquals(1, Affinities.score(affinities, Subjects.container(pod, "c2"), pod, c1));
    assertEquals(0, Affinities.score(affinities, Subjects.container(pod, "c3"), pod, c1));
    assertEquals(0, Affinities.score(affinities, Subjects.container(other, "c2"), other, c1));
    Affinity all =
        new Affinity(
            new Expression("", Operator.ALWAYS_TRUE, List.of()),
            new Expression("name", Operator.MATCHES, List.of("c*")),
            3);
    assertEquals(3, Affinities.score(all, Subjects.container(other, "c2"), other, c1));
    assertEquals(0, Affinities.score(all, c1, pod, c1));
  }

  @Test
  void anAnnotationOverTheSizeLimitsIsRefusedNamingTheLimit() {
    String longName = "c".repeat(64 * 1024 + 1);
    assertEquals(
        "annotation cri-resource-manager.intel.com/affinity: not YAML: String value length (65537)"
            + " at c1[0] exceeds the maximum allowed (65536) for annotation; expected a mapping of"
            + " container names to lists of container names or to lists of {scope, match, weight}",
        assertThrows(
                IllegalArgumentException.class,
                () -> of("c1", Map.of(Affinities.AFFINITY, "c1: [" + longName + "]")))
            .getMessage());
    String huge = "c1: [" + "c2, ".repeat(70_000) + "c3]";
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> of("c1", Map.of(Affinities.AFFINITY, huge)))
            .getMessage()
            .contains("Document length (280008) exceeds the maximum allowed (262144)"));
  }
}
