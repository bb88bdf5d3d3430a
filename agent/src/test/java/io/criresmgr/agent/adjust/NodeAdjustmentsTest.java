package io.criresmgr.agent.adjust;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonParser;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeAdjustmentsTest {
  private static Adjustment parse(String name, String spec) {
    return AdjustmentParser.parse(
        JsonParser.parseString("{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":" + spec + "}")
            .getAsJsonObject());
  }

  private static final Adjustment MINE =
      parse(
          "mine",
          """
          {"scope":[{"nodes":["n9"]},
                    {"nodes":["n1"],"containers":[{"key":"name","operator":"Exists"}]}],
           "resources":{"limits":{"memory":"1Gi"}}}""");
  private static final Adjustment ALL =
      parse("all", "{\"scope\":[{}],\"classes\":{\"rdt\":\"x\"}}");
  private static final Adjustment OTHER = parse("other", "{\"scope\":[{\"nodes\":[\"n2*\"]}]}");

  @Test
  void keepsTheInScopeAdjustmentsWithTheNodesScopeEntries() {
    NodeAdjustments set = NodeAdjustments.of("n1", List.of(MINE, ALL, OTHER));
    assertEquals(Set.of("mine", "all"), set.names());
    assertEquals(
        JsonParser.parseString(
            """
            {"all":{"scope":[{"nodes":[],"containers":[]}],"classes":{"rdt":"x"}},
             "mine":{"scope":[{"nodes":["n1"],
                               "containers":[{"key":"name","operator":"Exists","values":[]}]}],
                     "resources":{"limits":{"memory":"1Gi"}}}}"""),
        JsonParser.parseString(set.json()));
  }

  @Test
  void namesAreSortedSoEqualSetsSendTheSameText() {
    assertEquals(
        NodeAdjustments.of("n1", List.of(MINE, ALL)).json(),
        NodeAdjustments.of("n1", List.of(ALL, MINE)).json());
    assertEquals(
        NodeAdjustments.of("n1", List.of(MINE, ALL)), NodeAdjustments.of("n1", List.of(ALL, MINE)));
  }

  @Test
  void noAdjustmentInScopeIsAnEmptyObject() {
    assertEquals("{}", NodeAdjustments.of("n1", List.of(OTHER)).json());
    assertEquals("{}", NodeAdjustments.of("n1", List.of()).json());
  }
}
