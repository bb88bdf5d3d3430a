package io.criresmgr.agent.adjust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AdjustmentParserTest {
  private static JsonObject object(String spec, String status) {
    return JsonParser.parseString(
            "{\"metadata\":{\"name\":\"a1\"},\"spec\":" + spec + ",\"status\":" + status + "}")
        .getAsJsonObject();
  }

  private static String error(String spec) {
    return assertThrows(
            IllegalArgumentException.class, () -> AdjustmentParser.parse(object(spec, "{}")))
        .getMessage();
  }

  @Test
  void parsesEveryField() {
    Adjustment a =
        AdjustmentParser.parse(
            object(
                """
                {"scope":[{"nodes":["n1","w-*"],
                           "containers":[{"key":"name","operator":"In","values":["x","y"]}]}],
                 "resources":{"requests":{"cpu":"500m","memory":1073741824},"limits":{"cpu":2}},
                 "classes":{"rdt":"gold","blockio":"slow"},"toptierLimit":"2Gi"}""",
                "{\"nodes\":{\"n1\":{\"errors\":{\"c1\":\"bad\"}},\"n2\":{}}}"));
    AdjustmentSpec spec =
        new AdjustmentSpec(
            List.of(
                new AdjustmentScope(
                    List.of("n1", "w-*"),
                    List.of(new ContainerExpression("name", "In", List.of("x", "y"))))),
            Map.of("cpu", "500m", "memory", "1073741824"),
            Map.of("cpu", "2"),
            Optional.of("gold"),
            Optional.of("slow"),
            Optional.of("2Gi"));
    assertEquals(new Adjustment("a1", spec, Map.of("n1", Map.of("c1", "bad"), "n2", Map.of())), a);
    assertEquals(Optional.of(Map.of("c1", "bad")), a.errorsOf("n1"));
    assertEquals(Optional.empty(), a.errorsOf("n3"));
  }

  @Test
  void onlyTheScopeIsRequired() {
    Adjustment a = AdjustmentParser.parse(object("{\"scope\":[]}", "null"));
    assertEquals(List.of(), a.spec().scope());
    assertEquals(Map.of(), a.nodeErrors());
  }

  @Test
  void namesTheFieldWithTheWrongShape() {
    assertEquals("spec.scope: missing", error("{}"));
    assertEquals("spec.scope: expected an array", error("{\"scope\":{}}"));
    assertEquals(
        "spec.scope[0].nodes[1]: expected a string", error("{\"scope\":[{\"nodes\":[\"a\",1]}]}"));
    assertEquals(
        "spec.scope[0].containers[0]: invalid operator \"Is\": expected one of "
            + String.join(", ", ContainerExpression.OPERATORS),
        error("{\"scope\":[{\"containers\":[{\"key\":\"name\",\"operator\":\"Is\"}]}]}"));
    assertEquals(
        "spec.resources.requests.hugepages-2Mi: only cpu and memory can be adjusted",
        error("{\"scope\":[],\"resources\":{\"requests\":{\"hugepages-2Mi\":\"1\"}}}"));
    assertEquals(
        "spec.toptierLimit: invalid quantity \"lots\"",
        error("{\"scope\":[],\"toptierLimit\":\"lots\"}"));
    assertEquals(
        "spec.classes.rdt: expected a string", error("{\"scope\":[],\"classes\":{\"rdt\":1}}"));
  }

  @Test
  void anObjectWithoutANameIsRejected() {
    JsonObject nameless = JsonParser.parseString("{\"spec\":{\"scope\":[]}}").getAsJsonObject();
    assertEquals(
        "metadata.name: missing",
        assertThrows(IllegalArgumentException.class, () -> AdjustmentParser.parse(nameless))
            .getMessage());
  }
}
