package io.criresmgr.cache.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;

class ParseLimitsTest {
  private static final ParseLimits SMALL = new ParseLimits("a test document", 1000, 10);
  private static final ObjectMapper YAML =
      YAMLMapper.builder(SMALL.yamlFactory())
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();
  private static final ObjectMapper JSON = JsonMapper.builder(SMALL.jsonFactory()).build();

  private static String refusedYaml(String text) {
    return assertThrows(StreamConstraintsException.class, () -> SMALL.readYaml(YAML, text))
        .getOriginalMessage();
  }

  private static String refusedJson(String text) {
    return assertThrows(StreamConstraintsException.class, () -> JSON.readTree(text))
        .getOriginalMessage();
  }

  @Test
  void yamlWithinTheLimitsParses() throws JsonProcessingException {
    assertEquals(
        "0123456789", SMALL.readYaml(YAML, "a:\n  b: [0123456789]\n").at("/a/b/0").asText());
    assertTrue(SMALL.readYaml(YAML, "").isMissingNode());
  }

  @Test
  void yamlDocumentsStringsAndKeysOverTheLimitAreRefusedNamingIt() {
    assertEquals(
        "Document length (1001) exceeds the maximum allowed (1000) for a test document",
        refusedYaml("a: " + "x".repeat(998)));
    assertEquals(
        "String value length (11) at a.b[1] exceeds the maximum allowed (10) for a test document",
        refusedYaml("a:\n  b: [x, \"01234567890\"]\n"));
    assertEquals(
        "Key length (11) at a exceeds the maximum allowed (10) for a test document",
        refusedYaml("a:\n  01234567890: 1\n"));
  }

  @Test
  void yamlNestingIsBounded() {
    String deep = "[".repeat(ParseLimits.MAX_NESTING_DEPTH + 1) + "]".repeat(65);
    assertThrows(JsonProcessingException.class, () -> ParseLimits.CONFIG.readYaml(YAML, deep));
  }

  @Test
  void aFiftyMegabyteYamlScalarIsRefusedByTheDocumentLimit() {
    String text = "policy:\n  Active: " + "x".repeat(50 * 1024 * 1024) + "\n";
    StreamConstraintsException e =
        assertThrows(
            StreamConstraintsException.class, () -> ParseLimits.CONFIG.readYaml(YAML, text));
    assertEquals(
        "Document length (52428819) exceeds the maximum allowed (1048576) for configuration",
        e.getOriginalMessage());
  }

  @Test
  void jsonStringsNumbersAndNestingAreBoundedByJackson() {
    assertTrue(refusedJson("{\"a\":\"01234567890\"}").startsWith("String value length (11)"));
    assertTrue(
        refusedJson("[1" + "0".repeat(ParseLimits.MAX_NUMBER_LENGTH) + "]")
            .startsWith("Number value length"));
    assertTrue(
        refusedJson("[".repeat(ParseLimits.MAX_NESTING_DEPTH + 1))
            .startsWith("Document nesting depth (65)"));
    assertTrue(refusedJson("[\"" + "x\",\"".repeat(300) + "\"]").startsWith("Document length"));
  }

  @Test
  void limitsMustBeConsistent() {
    assertThrows(IllegalArgumentException.class, () -> new ParseLimits("x", 10, 11));
  }
}
