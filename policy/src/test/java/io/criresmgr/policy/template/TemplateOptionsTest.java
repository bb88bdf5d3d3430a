package io.criresmgr.policy.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.policy.PolicyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TemplateOptionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static TemplateOptions parse(String json) throws Exception {
    return TemplateOptions.parse(JSON.readTree(json));
  }

  private static String error(String json) throws Exception {
    JsonNode node = JSON.readTree(json);
    return assertThrows(PolicyException.class, () -> TemplateOptions.parse(node)).getMessage();
  }

  @Test
  void absentOrEmptySectionGivesTheDefaults() throws Exception {
    assertEquals(TemplateOptions.DEFAULTS, parse("{}"));
    assertEquals(TemplateOptions.DEFAULTS, TemplateOptions.parse(MissingNode.getInstance()));
    assertEquals(TemplateOptions.DEFAULTS, parse("{\"ExclusiveCpus\":null}"));
    assertEquals(true, TemplateOptions.DEFAULTS.exclusiveCpus());
  }

  @ParameterizedTest
  @CsvSource({
    "'{\"ExclusiveCpus\":false}', false",
    "'{\"ExclusiveCpus\":true}', true",
    "'{\"exclusivecpus\":false}', false",
    "'{\"ExclusiveCpus\":\"no\"}', false",
    "'{\"ExclusiveCpus\":\"on\"}', true"
  })
  void exclusiveCpusIsABoolean(String json, boolean expected) throws Exception {
    assertEquals(new TemplateOptions(expected), parse(json));
  }

  @Test
  void unknownKeysAreRejectedWithTheKnownOnes() throws Exception {
    assertEquals(
        "policy.template.ExclusiveCPU: unknown key, expected one of ExclusiveCpus",
        error("{\"ExclusiveCPU\":true}"));
  }

  @Test
  void badValuesAreRejectedWithTheValueAndWhatIsAllowed() throws Exception {
    assertEquals(
        "policy.template.ExclusiveCpus: invalid value \"maybe\": expected true or false",
        error("{\"ExclusiveCpus\":\"maybe\"}"));
    assertEquals(
        "policy.template.ExclusiveCpus: invalid value 1: expected true or false",
        error("{\"ExclusiveCpus\":1}"));
  }

  @Test
  void aSectionThatIsNoMappingIsRejected() throws Exception {
    assertEquals("policy.template: invalid value [1]: expected a mapping", error("[1]"));
  }
}
