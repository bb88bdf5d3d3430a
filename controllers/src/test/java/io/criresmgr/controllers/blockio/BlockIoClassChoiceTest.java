package io.criresmgr.controllers.blockio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.QosClass;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BlockIoClassChoiceTest {
  private static final String CRI = "blockioclass.cri-resource-manager.intel.com";
  private static final String NRI = "blockioclass.resource-policy.nri.io";

  private static BlockIoClassChoice choose(Map<String, String> annotations) {
    return BlockIoClassChoice.of(annotations, "app", QosClass.BURSTABLE);
  }

  @Test
  void containerAnnotationBeatsPodAnnotationBeatsBareKey() {
    Map<String, String> all =
        Map.of(
            CRI,
            "bare",
            NRI + "/pod",
            "pod",
            NRI + "/container.app",
            "mine",
            CRI + "/container.other",
            "theirs");
    assertEquals(new BlockIoClassChoice("mine", NRI + "/container.app"), choose(all));
    assertEquals(
        new BlockIoClassChoice("pod", NRI + "/pod"),
        choose(Map.of(CRI, "bare", NRI + "/pod", "pod")));
    assertEquals(new BlockIoClassChoice("bare", CRI), choose(Map.of(CRI, "bare")));
  }

  @Test
  void criResmgrKeyBeatsNriKeyInTheSameForm() {
    assertEquals(
        new BlockIoClassChoice("a", CRI + "/pod"),
        choose(Map.of(CRI + "/pod", "a", NRI + "/pod", "b")));
  }

  @Test
  void withoutAnnotationTheQosClassNameIsTheClass() {
    BlockIoClassChoice c = BlockIoClassChoice.of(Map.of(), "app", QosClass.BEST_EFFORT);
    assertEquals(new BlockIoClassChoice("BestEffort", "qos class"), c);
  }

  private static ResolvedClasses classes(String... names) {
    Map<String, BlockIoParameters> m = new LinkedHashMap<>();
    for (String n : names) {
      m.put(n, BlockIoParameters.none());
    }
    return new ResolvedClasses(m, List.of());
  }

  @Test
  void qosDefaultWithoutAnyClassesIsImplicitlyDisabled() {
    assertEquals(Optional.empty(), choose(Map.of()).parameters(classes()));
  }

  @Test
  void emptyAnnotationValueMeansNoClass() {
    assertEquals(Optional.empty(), choose(Map.of(CRI, "")).parameters(classes("Burstable")));
  }

  @Test
  void knownClassGivesItsParameters() {
    assertEquals(
        Optional.of(BlockIoParameters.none()), choose(Map.of()).parameters(classes("Burstable")));
  }

  @Test
  void unknownClassIsAnErrorNamingSourceAndKnownClasses() {
    BlockIoException e =
        assertThrows(
            BlockIoException.class,
            () -> choose(Map.of(CRI + "/pod", "Gold")).parameters(classes("Silver", "Bronze")));
    assertEquals(
        "block I/O class \"Gold\" (from "
            + CRI
            + "/pod) is not configured; configured classes:"
            + " Silver, Bronze",
        e.getMessage());
    assertEquals(
        java.util.Optional.empty(),
        choose(Map.of()).parameters(classes("LowPrio")),
        "a QoS-class default that is not configured writes nothing, without an error");
    e = assertThrows(BlockIoException.class, () -> choose(Map.of(NRI, "x")).parameters(classes()));
    assertEquals(
        "block I/O class \"x\" (from " + NRI + ") is not configured; configured classes: none",
        e.getMessage());
  }
}
