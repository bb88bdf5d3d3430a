package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrictMappingTest {
  private static final List<String> KEYS = List.of("Name", "Items");

  private static JsonNode json(String text) throws Exception {
    return new ObjectMapper().readTree(text);
  }

  private static StrictMapping of(String text) throws Exception {
    return StrictMapping.of("top.section", json(text), KEYS, IllegalStateException::new);
  }

  @Test
  void keysMatchExactlyOrIgnoringCaseAndNullIsNotGiven() throws Exception {
    StrictMapping m = of("{\"name\": \"a\", \"Items\": null}");
    assertEquals(Map.of("Name", json("\"a\"")), m.fields());
    assertEquals("top.section.Name", m.path("Name"));
    assertEquals(List.of(), m.list("Items"));
    assertEquals(
        Map.of(),
        StrictMapping.of("x", MissingNode.getInstance(), KEYS, IllegalStateException::new)
            .fields());
  }

  @Test
  void unknownDuplicateAndMalformedInputAreErrorsOfTheCallersType() {
    assertEquals(
        "top.section.Nmae: unknown key, expected one of Name, Items",
        assertThrows(IllegalStateException.class, () -> of("{\"Nmae\": 1}")).getMessage());
    assertEquals(
        "top.section.NAME: duplicate key (Name is given twice, keys are case-insensitive)",
        assertThrows(IllegalStateException.class, () -> of("{\"Name\": 1, \"NAME\": 2}"))
            .getMessage());
    assertEquals(
        "top.section: invalid value [1]: expected a mapping",
        assertThrows(IllegalStateException.class, () -> of("[1]")).getMessage());
    assertEquals(
        "top.section.Items: invalid value 3: expected a list",
        assertThrows(IllegalStateException.class, () -> of("{\"Items\": 3}").list("Items"))
            .getMessage());
  }

  @Test
  void namedItemsMustBeUnique() throws Exception {
    StrictMapping m = of("{\"Items\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}");
    assertEquals(
        List.of("top.section.Items[0]:a", "top.section.Items[1]:b"),
        m.uniquelyNamed("Items", (at, n) -> at + ":" + n.get("name").asText(), x -> x, "item"));
    StrictMapping twice = of("{\"Items\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}");
    assertEquals(
        "top.section.Items[1].name: invalid value \"a\": duplicate item name, names must be unique",
        assertThrows(
                IllegalStateException.class,
                () ->
                    twice.uniquelyNamed("Items", (at, n) -> n.get("name").asText(), x -> x, "item"))
            .getMessage());
  }
}
