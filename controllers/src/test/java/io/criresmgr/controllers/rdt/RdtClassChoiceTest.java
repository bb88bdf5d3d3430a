package io.criresmgr.controllers.rdt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.QosClass;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RdtClassChoiceTest {
  @Test
  void annotationFormsInOrder() {
    Map<String, String> a =
        Map.of(
            "rdtclass.cri-resource-manager.intel.com", "plain",
            "rdtclass.resource-policy.nri.io/pod", "nripod",
            "rdtclass.cri-resource-manager.intel.com/container.web", " gold ");
    assertEquals(
        new RdtClassChoice("gold", "rdtclass.cri-resource-manager.intel.com/container.web"),
        RdtClassChoice.of(a, "web", QosClass.BURSTABLE));
    assertEquals(
        new RdtClassChoice("nripod", "rdtclass.resource-policy.nri.io/pod"),
        RdtClassChoice.of(a, "db", QosClass.BURSTABLE));
    assertEquals(
        new RdtClassChoice("Burstable", "qos class"),
        RdtClassChoice.of(Map.of(), "db", QosClass.BURSTABLE));
  }

  @Test
  void resolvesPerReference() throws Exception {
    RdtConfig c = RdtConfig.parse(RdtConfigTest.json(RdtConfigTest.EXAMPLE));
    assertEquals("BestEffort", RdtClassChoice.of(Map.of(), "x", QosClass.BEST_EFFORT).resolve(c));
    assertEquals("", new RdtClassChoice("nope", "a").resolve(c));
    assertEquals("", new RdtClassChoice("", "a").resolve(c));
    RdtConfig one =
        RdtConfig.parse(
            RdtConfigTest.json("{\"partitions\": {\"p\": {\"classes\": {\"Guaranteed\": {}}}}}"));
    assertEquals("", RdtClassChoice.of(Map.of(), "x", QosClass.GUARANTEED).resolve(one));
    assertEquals("Guaranteed", new RdtClassChoice("Guaranteed", "a").resolve(one));
    RdtConfig off = RdtConfig.parse(RdtConfigTest.json("{\"options\": {\"mode\": \"disabled\"}}"));
    assertEquals("", new RdtClassChoice("Guaranteed", "a").resolve(off));
  }

  @Test
  void discoveryModeUsesExistingGroups() throws Exception {
    RdtConfig d = RdtConfig.parse(RdtConfigTest.json("{\"options\": {\"mode\": \"Discovery\"}}"));
    java.util.Set<String> groups = java.util.Set.of("BestEffort", "fast");
    assertEquals(
        "BestEffort", RdtClassChoice.of(Map.of(), "x", QosClass.BEST_EFFORT).resolve(d, groups));
    assertEquals("", RdtClassChoice.of(Map.of(), "x", QosClass.BURSTABLE).resolve(d, groups));
    assertEquals("fast", new RdtClassChoice("fast", "a").resolve(d, groups));
    assertEquals(
        "",
        RdtClassChoice.of(Map.of(), "x", QosClass.BEST_EFFORT)
            .resolve(d, java.util.Set.of("fast")));
  }
}
