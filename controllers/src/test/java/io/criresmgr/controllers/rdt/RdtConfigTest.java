package io.criresmgr.controllers.rdt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class RdtConfigTest {
  static final String EXAMPLE =
      "{\"options\": {\"mode\": \"Full\", \"monitoringDisabled\": true, \"l3\": {\"optional\": true},"
          + " \"mb\": {\"optional\": true}}, \"partitions\": {"
          + "\"shared\": {\"l3Allocation\": \"40%\", \"mbAllocation\": [\"50%\"], \"classes\":"
          + " {\"Burstable\": {\"l3Allocation\": \"100%\"}, \"BestEffort\": {\"l3Allocation\": \"50%\","
          + " \"mbAllocation\": [\"50%\"]}}},"
          + "\"exclusive\": {\"l3Allocation\": \"60%\", \"mbAllocation\": [\"100%\"], \"classes\":"
          + " {\"Guaranteed\": {\"l3Allocation\": \"100%\"}}}}}";

  static JsonNode json(String text) throws Exception {
    return new ObjectMapper().readTree(text);
  }

  @Test
  void parsesTheReferenceExample() throws Exception {
    RdtConfig c = RdtConfig.parse(json(EXAMPLE));
    assertEquals(RdtMode.FULL, c.mode());
    assertEquals(true, c.monitoringDisabled());
    assertEquals(
        List.of(false, true, true), List.of(c.l2Optional(), c.l3Optional(), c.mbOptional()));
    assertEquals(
        List.of("exclusive", "shared"), c.partitions().stream().map(RdtPartition::name).toList());
    assertEquals(
        List.of("Guaranteed", "Burstable", "BestEffort"),
        c.classes().stream().map(RdtClass::name).toList());
    assertEquals(50, c.partitions().get(1).mb().orElseThrow().get(0).orElseThrow());
  }

  @Test
  void missingSectionIsEmpty() throws Exception {
    assertEquals(RdtConfig.EMPTY, RdtConfig.parse(json("null")));
  }

  @Test
  void perCacheIdValues() throws Exception {
    RdtConfig c =
        RdtConfig.parse(
            json(
                "{\"partitions\": {\"p\": {\"l3Allocation\":"
                    + " {\"all\": \"50%\", \"1-2\": \"0xf0\"}, \"mbAllocation\": {\"all\": [\"40%\"], \"3\": [\"1000MBps\", \"80%\"]}}}}"));
    PerCacheId<CacheSpec> l3 = c.partitions().get(0).l3().orElseThrow();
    assertEquals("50%", l3.get(0).orElseThrow().text());
    assertEquals(0xf0L, l3.get(2).orElseThrow().mask());
    assertEquals(80, c.partitions().get(0).mb().orElseThrow().get(3).orElseThrow());
  }

  @Test
  void errorsNamePathValueAndAllowed() {
    assertEquals(
        "rdt.partitions.p.l3Allocation: invalid value \"40p\": " + CacheSpec.ALLOWED,
        error("{\"partitions\": {\"p\": {\"l3Allocation\": \"40p\"}}}"));
    assertEquals(
        "rdt.options.mode: invalid value \"Fast\": expected one of Full, Discovery, Disabled",
        error("{\"options\": {\"mode\": \"Fast\"}}"));
    assertEquals(
        "rdt.partitions.p.classes.c.l4Allocation: unknown key, expected one of"
            + " l2Allocation, l3Allocation, mbAllocation",
        error("{\"partitions\": {\"p\": {\"classes\": {\"c\": {\"l4Allocation\": \"1%\"}}}}}"));
    assertEquals(
        "rdt.partitions.q.classes.c: duplicate class name, class names must be unique"
            + " across partitions",
        error(
            "{\"partitions\": {\"p\": {\"classes\": {\"c\": {}}}, \"q\": {\"classes\": {\"c\": {}}}}}"));
    assertEquals(
        "rdt.partitions.p.l3Allocation.x: unknown key, expected all or cache ids such as"
            + " 0, 1-3 or 0,2",
        error("{\"partitions\": {\"p\": {\"l3Allocation\": {\"x\": \"1%\"}}}}"));
    assertEquals(
        "rdt.partitions.p.mbAllocation: invalid value [\"150%\"]: percentages must be from"
            + " 1% to 100%",
        error("{\"partitions\": {\"p\": {\"mbAllocation\": [\"150%\"]}}}"));
    assertEquals(
        "rdt.options.l3.optional: invalid value \"yes\": expected true or false",
        error("{\"options\": {\"l3\": {\"optional\": \"yes\"}}}"));
  }

  @Test
  void nriClassesOnlyWithDiscoveryMode() throws Exception {
    assertTrue(
        RdtConfig.parse(json("{\"options\": {\"mode\": \"Discovery\", \"nriClasses\": true}}"))
            .nriClasses());
    assertFalse(RdtConfig.parse(json("{\"options\": {\"mode\": \"Discovery\"}}")).nriClasses());
    assertFalse(RdtConfig.parse(json("{\"options\": {\"nriClasses\": false}}")).nriClasses());
    assertEquals(
        "rdt.options.nriClasses: true needs rdt.options.mode Discovery, not Full: the runtime puts"
            + " a container into the resctrl group named exactly like the class, and mode Full"
            + " makes cri-resmgr's own groups cri-resmgr.<class>; allowed: false, or true with"
            + " mode Discovery",
        error("{\"options\": {\"nriClasses\": true}}"));
    assertEquals(
        "rdt.options.nriClasses: true needs rdt.options.mode Discovery, not Disabled: the runtime"
            + " puts a container into the resctrl group named exactly like the class, and mode"
            + " Disabled puts every container in the root group; allowed: false, or true with"
            + " mode Discovery",
        error("{\"options\": {\"mode\": \"Disabled\", \"nriClasses\": true}}"));
    assertEquals(
        "rdt.options.nriClasses: invalid value \"yes\": expected true or false",
        error("{\"options\": {\"mode\": \"Discovery\", \"nriClasses\": \"yes\"}}"));
  }

  @Test
  void classNamesMustBeDirectoryNames() {
    assertEquals(
        "rdt.partitions.p.classes.../x: invalid class name, expected letters, digits, '_', '-'"
            + " and '.' (it names a resctrl directory)",
        error("{\"partitions\": {\"p\": {\"classes\": {\"../x\": {}}}}}"));
    assertEquals(
        "rdt.partitions.p.classes...: invalid class name, expected letters, digits, '_', '-'"
            + " and '.' (it names a resctrl directory)",
        error("{\"partitions\": {\"p\": {\"classes\": {\"..\": {}}}}}"));
  }

  private static String error(String text) {
    return assertThrows(RdtException.class, () -> RdtConfig.parse(json(text))).getMessage();
  }
}
