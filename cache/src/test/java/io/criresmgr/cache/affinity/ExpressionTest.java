package io.criresmgr.cache.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionTest {
  private static final Pod POD =
      Subjects.pod(
          "web-1", "shop", Map.of("app", "web", "tier", "front"), Map.of("a.b/c", "not a label"));
  private static final Container C =
      Subjects.container(
          POD,
          "nginx",
          Map.of(
              "io.kubernetes.container.name", "nginx",
              "app.kubernetes.io/name", "proxy",
              "size", "small"));

  private static boolean eval(String key, String op, String... values) {
    return new Expression(key, Expression.Operator.parse(op), Arrays.asList(values))
        .evaluate(C, POD);
  }

  @ParameterizedTest
  @CsvSource({
    "name, nginx",
    "namespace, shop",
    "qosclass, Burstable",
    "id, ctr-nginx",
    "labels/size, small",
    "io.kubernetes.container.name, nginx",
    "labels/app.kubernetes.io/name, proxy",
    "app.kubernetes.io/name, proxy",
    "pod/name, web-1",
    "pod/namespace, shop",
    "pod/qosclass, Burstable",
    "pod/id, sandbox-web-1",
    "pod/uid, uid-web-1",
    "pod/labels/app, web",
    "./pod//labels/tier, front",
    "':name:namespace', nginx:shop",
    "':name:pod/labels/app:size', nginx:web:",
    "':;-name;pod/name', nginx-web-1"
  })
  void keysResolve(String key, String value) {
    assertEquals(true, eval(key, "Equals", value));
    assertEquals(true, eval(key, "Exists"));
  }

  @ParameterizedTest
  @CsvSource({
    "size",
    "labels/missing",
    "labels",
    "tags/AVX512",
    "pod/labels/size",
    "pod/annotations/a.b/c",
    "uid",
    "pod/bogus",
    "bogus",
    "':bogus:labels/missing'"
  })
  void keysThatDoNotResolve(String key) {
    assertEquals(false, eval(key, "Exists"));
    assertEquals(true, eval(key, "NotExist"));
    assertEquals(false, eval(key, "Equals", "*"));
    assertEquals(true, eval(key, "NotEqual", "x"));
    assertEquals(true, eval(key, "NotIn", "*"));
    assertEquals(false, eval(key, "Matches", "*"));
    assertEquals(true, eval(key, "MatchesNot", "*"));
    assertEquals(true, eval(key, "MatchesNone", "*"));
    assertEquals(true, eval(key, "AlwaysTrue"));
  }

  @Test
  void operators() {
    assertEquals(true, eval("name", "Equals", "nginx"));
    assertEquals(false, eval("name", "Equals", "ngin"));
    assertEquals(true, eval("name", "Equals", "*"));
    assertEquals(true, eval("name", "NotEqual", "ngin"));
    assertEquals(false, eval("name", "NotEqual", "nginx"));
    assertEquals(true, eval("name", "NotEqual", "*"), "no wildcard for NotEqual");
    assertEquals(true, eval("name", "In", "a", "nginx"));
    assertEquals(false, eval("name", "In", "a", "b"));
    assertEquals(false, eval("name", "In"));
    assertEquals(true, eval("name", "In", "a", "*"));
    assertEquals(false, eval("name", "NotIn", "a", "nginx"));
    assertEquals(true, eval("name", "NotIn", "a", "b"));
    assertEquals(false, eval("name", "NotIn", "*"));
    assertEquals(true, eval("name", "Matches", "ng*"));
    assertEquals(false, eval("name", "Matches", "ng"));
    assertEquals(true, eval("name", "Matches", "ngin[a-z]"));
    assertEquals(false, eval("name", "MatchesNot", "n?inx"));
    assertEquals(true, eval("name", "MatchesNot", "apache*"));
    assertEquals(true, eval("name", "MatchesAny", "apache*", "*x"));
    assertEquals(false, eval("name", "MatchesAny", "apache*", "*y"));
    assertEquals(false, eval("name", "MatchesAny"));
    assertEquals(false, eval("name", "MatchesNone", "apache*", "*x"));
    assertEquals(true, eval("name", "MatchesNone", "apache*", "*y"));
  }

  @Test
  void valuesMustFitTheOperator() {
    assertEquals("Equals takes exactly one value, got 2", invalid("Equals", "a", "b"));
    assertEquals("NotEqual takes exactly one value, got 0", invalid("NotEqual"));
    assertEquals("Matches takes exactly one value, got 0", invalid("Matches"));
    assertEquals("MatchesNot takes exactly one value, got 2", invalid("MatchesNot", "a", "b"));
    assertEquals("Exists takes no values, got [a]", invalid("Exists", "a"));
    assertEquals("NotExist takes no values, got [a]", invalid("NotExist", "a"));
    assertEquals(
        "invalid pattern \"a[\": character class at 1 is empty, unterminated or has a bad range"
            + " (syntax: *, ?, [a-z], [^a-z], \\c)",
        invalid("MatchesAny", "a*", "a["));
  }

  @Test
  void operatorsAreSpelledAsInCriResmgr() {
    assertEquals(Expression.Operator.NOT_EXIST, Expression.Operator.parse("NotExist"));
    assertEquals(
        "invalid operator \"equals\": expected one of Equals, NotEqual, In, NotIn, Exists,"
            + " NotExist, AlwaysTrue, Matches, MatchesNot, MatchesAny, MatchesNone",
        assertThrows(IllegalArgumentException.class, () -> Expression.Operator.parse("equals"))
            .getMessage());
  }

  @Test
  void printsLikeCriResmgr() {
    assertEquals(
        "<name In a,b>",
        new Expression("name", Expression.Operator.IN, List.of("a", "b")).toString());
  }

  private static String invalid(String op, String... values) {
    Expression.Operator operator = Expression.Operator.parse(op);
    List<String> list = Arrays.asList(values);
    return assertThrows(IllegalArgumentException.class, () -> new Expression("k", operator, list))
        .getMessage();
  }
}
