package io.criresmgr.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class OptionsReaderTest {
  private static final List<String> KEYS = List.of("PinCPU", "Name");

  private static OptionsReader read(String json) throws Exception {
    return OptionsReader.of("demo", new ObjectMapper().readTree(json), KEYS);
  }

  private static String error(String json) throws Exception {
    JsonNode node = new ObjectMapper().readTree(json);
    return assertThrows(PolicyException.class, () -> OptionsReader.of("demo", node, KEYS))
        .getMessage();
  }

  @Test
  void keysMatchExactlyOrIgnoringCase() throws Exception {
    OptionsReader r = read("{\"pincpu\":false,\"Name\":\"x\"}");
    assertFalse(r.bool("PinCPU", true));
    assertEquals("x", r.string("Name", ""));
    assertEquals("policy.demo.PinCPU", r.path("PinCPU"));
  }

  @Test
  void absentAndNullValuesGiveTheDefault() throws Exception {
    assertTrue(read("{\"PinCPU\":null}").bool("PinCPU", true));
    assertEquals("d", read("{}").string("Name", "d"));
    assertTrue(OptionsReader.of("demo", MissingNode.getInstance(), KEYS).field("Name").isEmpty());
  }

  @Test
  void unknownAndDuplicateKeysAreRejected() throws Exception {
    assertEquals(
        "policy.demo.PinCPUs: unknown key, expected one of PinCPU, Name",
        error("{\"PinCPUs\":true}"));
    assertEquals(
        "policy.demo.pincpu: duplicate key (PinCPU is given twice, keys are case-insensitive)",
        error("{\"PinCPU\":true,\"pincpu\":false}"));
  }

  @Test
  void valuesOfTheWrongTypeAreRejected() throws Exception {
    OptionsReader r = read("{\"PinCPU\":\"sometimes\",\"Name\":3}");
    assertEquals(
        "policy.demo.PinCPU: invalid value \"sometimes\": expected true or false",
        assertThrows(PolicyException.class, () -> r.bool("PinCPU", true)).getMessage());
    assertEquals(
        "policy.demo.Name: invalid value 3: expected a string",
        assertThrows(PolicyException.class, () -> r.string("Name", "")).getMessage());
  }

  @Test
  void aSectionMustBeAMapping() throws Exception {
    assertEquals("policy.demo: invalid value \"x\": expected a mapping", error("\"x\""));
  }
}
