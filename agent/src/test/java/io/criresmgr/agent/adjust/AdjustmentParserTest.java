package io.criresmgr.agent.adjust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.criresmgr.adjustment.AdjustmentSpec;
import io.criresmgr.adjustment.ContainerExpression;
import io.criresmgr.adjustment.Operator;
import io.criresmgr.adjustment.Quantity;
import io.criresmgr.adjustment.ScopeEntry;
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
                new ScopeEntry(
                    List.of("n1", "w-*"),
                    List.of(new ContainerExpression("name", Operator.IN, List.of("x", "y"))))),
            Map.of(
                "cpu", new Quantity("500m", 500), "memory", new Quantity("1073741824", 1L << 30)),
            Map.of("cpu", new Quantity("2", 2000)),
            Optional.of("gold"),
            Optional.of("slow"),
            Optional.of(new Quantity("2Gi", 2L << 30)));
    assertEquals(new Adjustment("a1", spec, Map.of("n1", Map.of("c1", "bad"), "n2", Map.of())), a);
    assertEquals(Optional.of(Map.of("c1", "bad")), a.errorsOf("n1"));
    assertEquals(Optional.empty(), a.errorsOf("n3"));
  }

  @Test
  void onlyTheScopeIsRequired() {
    Adjustment a = AdjustmentParser.parse(object("{\"scope\":[{}]}", "null"));
    assertEquals(List.of(new ScopeEntry(List.of(), List.of())), a.spec().scope());
    assertEquals(Map.of(), a.nodeErrors());
    // As the daemon: a scope without entries would apply nowhere.
    assertEquals(
        "adjustment a1: scope: required, a list of {nodes, containers} with at least one entry",
        error("{\"scope\":[]}"));
  }

  @Test
  void namesTheFieldWithTheWrongShapeAsTheDaemonDoes() {
    String required =
        "adjustment a1: scope: required, a list of {nodes, containers} with at least one entry";
    assertEquals(required, error("{}"));
    assertEquals(required, error("{\"scope\":{}}"));
    assertEquals(
        "adjustment a1: spec: expected an object, got NULL",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    AdjustmentParser.parse(
                        JsonParser.parseString("{\"metadata\":{\"name\":\"a1\"}}")
                            .getAsJsonObject()))
            .getMessage());
    assertEquals(
        "adjustment a1: scope[0].nodes[1]: expected a string, got 1",
        error("{\"scope\":[{\"nodes\":[\"a\",1]}]}"));
    assertEquals(
        "adjustment a1: scope[0].containers[0]: invalid operator \"Is\": expected one of "
            + String.join(", ", Operator.LABELS),
        error("{\"scope\":[{\"containers\":[{\"key\":\"name\",\"operator\":\"Is\"}]}]}"));
    assertEquals(
        "adjustment a1: resources.requests: unknown [hugepages-2Mi], allowed: [cpu, memory]",
        error("{\"scope\":[{}],\"resources\":{\"requests\":{\"hugepages-2Mi\":\"1\"}}}"));
    assertEquals(
        "adjustment a1: toptierLimit: invalid memory quantity \"lots\": not a number; expected"
            + " bytes such as 128974848, 129e6, 129M, 123Mi or 1.5Gi (suffixes k M G T P E, Ki Mi"
            + " Gi Ti Pi Ei)",
        error("{\"scope\":[{}],\"toptierLimit\":\"lots\"}"));
    assertEquals(
        "adjustment a1: classes.rdt: expected a string, got 1",
        error("{\"scope\":[{}],\"classes\":{\"rdt\":1}}"));
  }

  @Test
  void rejectsWhatTheDaemonWouldRejectWithEveryProblem() {
    assertEquals(
        List.of(
            "adjustment a1: scope[0].containers[0]: Exists takes no values, got [x]",
            "adjustment a1: resources.cpu: the limit 1000m is below the request 2000m;"
                + " a limit must be at least the request"),
        error(
                """
                {"scope":[{"containers":[{"key":"name","operator":"Exists","values":["x"]}]}],
                 "resources":{"requests":{"cpu":2},"limits":{"cpu":"1"}}}""")
            .lines()
            .toList());
  }

  @Test
  void keepsNumbersAsWritten() {
    AdjustmentSpec spec =
        AdjustmentParser.parse(
                object(
                    """
                    {"scope":[{}],"resources":{"requests":{"cpu":0.25,"memory":1e3}},
                     "toptierLimit":12345678901234}""",
                    "{}"))
            .spec();
    assertEquals(
        Map.of("cpu", new Quantity("0.25", 250), "memory", new Quantity("1e3", 1000)),
        spec.requests());
    assertEquals(Optional.of(new Quantity("12345678901234", 12345678901234L)), spec.toptierLimit());
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
