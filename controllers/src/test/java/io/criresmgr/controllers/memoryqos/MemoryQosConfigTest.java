package io.criresmgr.controllers.memoryqos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.criresmgr.controllers.ControllerException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MemoryQosConfigTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text.replace('\'', '"'));
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void parsesTheDocumentedExample() {
    MemoryQosConfig config =
        MemoryQosConfig.parse(
            json(
                "{'classes': [{'name': 'bronze', 'swaplimitratio': 0.5},"
                    + " {'name': 'silver', 'swaplimitratio': 0.2}],"
                    + " 'unifiedannotations': ['memory.swap.max', 'memory.high']}"));
    assertEquals(MemoryQosTest.SAMPLE, config);
    assertEquals(Optional.of(new MemoryQosClass("silver", 0.2f)), config.find("silver"));
    assertEquals(Optional.empty(), config.find("Silver"));
    assertEquals(true, config.allows("memory.high"));
    assertEquals(false, config.allows("memory.oom.group"));
  }

  @Test
  void keysMatchCaseInsensitivelyAsInGo() {
    MemoryQosConfig config =
        MemoryQosConfig.parse(
            json(
                "{'Classes': [{'NAME': 'bronze', 'swapLimitRatio': 1}],"
                    + " 'unifiedAnnotations': ['hugetlb.2MB.max']}"));
    assertEquals(
        new MemoryQosConfig(
            List.of(new MemoryQosClass("bronze", 1.0f)), List.of("hugetlb.2MB.max")),
        config);
  }

  @Test
  void aMissingOrEmptySectionIsEmpty() {
    assertEquals(MemoryQosConfig.EMPTY, MemoryQosConfig.parse(MissingNode.getInstance()));
    assertEquals(MemoryQosConfig.EMPTY, MemoryQosConfig.parse(NullNode.getInstance()));
    assertEquals(MemoryQosConfig.EMPTY, MemoryQosConfig.parse(json("{'classes': null}")));
  }

  @Test
  void aMissingRatioIsZero() {
    assertEquals(
        List.of(new MemoryQosClass("gold", 0f)),
        MemoryQosConfig.parse(json("{'classes': [{'name': 'gold'}]}")).classes());
  }

  @Test
  void theErrorPathFollowsTheGivenSectionPath() {
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () -> MemoryQosConfig.parse("policy.memory-qos", json("{'class': []}")));
    assertEquals(
        "policy.memory-qos.class: unknown key, expected one of classes, unifiedannotations",
        e.getMessage());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "[] | memory-qos: invalid value []: expected a mapping",
        "{'classes': {}} | memory-qos.classes: invalid value {}: expected a list",
        "{'classes': [], 'CLASSES': []}"
            + " | memory-qos.CLASSES: duplicate key (classes is given twice, keys are"
            + " case-insensitive)",
        "{'classes': [{'name': 'a', 'swaplimit': 0.5}]}"
            + " | memory-qos.classes[0].swaplimit: unknown key, expected one of name,"
            + " swaplimitratio",
        "{'classes': [{'swaplimitratio': 0.5}]}"
            + " | memory-qos.classes[0].name: missing, a class needs a name",
        "{'classes': [{'name': ''}]}"
            + " | memory-qos.classes[0].name: invalid value \"\": expected a non-empty string",
        "{'classes': [{'name': 7}]}"
            + " | memory-qos.classes[0].name: invalid value 7: expected a non-empty string",
        "{'classes': ['bronze']}"
            + " | memory-qos.classes[0]: invalid value \"bronze\": expected a mapping",
        "{'classes': [{'name': 'a', 'swaplimitratio': 1.5}]}"
            + " | memory-qos.classes[0].swaplimitratio: invalid value 1.5: expected a number from"
            + " 0.0 to 1.0",
        "{'classes': [{'name': 'a', 'swaplimitratio': -0.1}]}"
            + " | memory-qos.classes[0].swaplimitratio: invalid value -0.1: expected a number from"
            + " 0.0 to 1.0",
        "{'classes': [{'name': 'a', 'swaplimitratio': '0.5'}]}"
            + " | memory-qos.classes[0].swaplimitratio: invalid value \"0.5\": expected a number"
            + " from 0.0 to 1.0",
        "{'classes': [{'name': 'a'}, {'name': 'b'}, {'name': 'a', 'swaplimitratio': 0.1}]}"
            + " | memory-qos.classes[2].name: invalid value \"a\": duplicate class name, names"
            + " must be unique",
        "{'unifiedannotations': 'memory.high'}"
            + " | memory-qos.unifiedannotations: invalid value \"memory.high\": expected a list",
        "{'unifiedannotations': ['memory.high', 'memory.high']}"
            + " | memory-qos.unifiedannotations[1]: invalid value \"memory.high\": duplicate file"
            + " name, names must be unique",
        "{'unifiedannotations': ['../memory.high']}"
            + " | memory-qos.unifiedannotations[0]: invalid value \"../memory.high\": expected a"
            + " cgroup v2 file name such as memory.high or memory.swap.max",
        "{'unifiedannotations': ['class']}"
            + " | memory-qos.unifiedannotations[0]: invalid value \"class\": expected a cgroup v2"
            + " file name such as memory.high or memory.swap.max",
        "{'unifiedannotations': [1]}"
            + " | memory-qos.unifiedannotations[0]: invalid value 1: expected a cgroup v2 file"
            + " name such as memory.high or memory.swap.max",
      })
  void rejectsWithPathValueAndWhatIsAllowed(String section, String message) {
    ControllerException e =
        assertThrows(ControllerException.class, () -> MemoryQosConfig.parse(json(section)));
    assertEquals(message, e.getMessage());
  }

  @Test
  void recordsValidateToo() {
    IllegalArgumentException dup =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new MemoryQosConfig(
                    List.of(new MemoryQosClass("a", 0f), new MemoryQosClass("a", 0.5f)),
                    List.of()));
    assertEquals("duplicate class name \"a\"", dup.getMessage());
    IllegalArgumentException path =
        assertThrows(
            IllegalArgumentException.class,
            () -> new MemoryQosConfig(List.of(), List.of("memory.high/../x")));
    assertEquals("not a cgroup v2 file name: \"memory.high/../x\"", path.getMessage());
    IllegalArgumentException range =
        assertThrows(IllegalArgumentException.class, () -> new MemoryQosClass("a", Float.NaN));
    assertEquals("class a: swaplimitratio NaN is not in 0.0..1.0", range.getMessage());
  }
}
