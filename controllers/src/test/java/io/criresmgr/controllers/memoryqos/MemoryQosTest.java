package io.criresmgr.controllers.memoryqos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class MemoryQosTest {
  /** The documented example: bronze 0.5, silver 0.2, memory.swap.max and memory.high allowed. */
  static final MemoryQosConfig SAMPLE =
      new MemoryQosConfig(
          List.of(new MemoryQosClass("bronze", 0.5f), new MemoryQosClass("silver", 0.2f)),
          List.of("memory.swap.max", "memory.high"));

  static final long M100 = 100_000_000L;

  /** The pod of nri-plugins' manual test, test/e2e/files/nri-memory-qos-test-pod.yaml. */
  static final Map<String, String> TEST_POD =
      Map.of(
          "class.memory-qos.nri.io", "silver",
          "class.memory-qos.nri.io/c0-lowprio", "bronze",
          "memory.swap.max.memory-qos.nri.io/c2-noswap", "0",
          "memory.high.memory-qos.nri.io/c2-noswap", "max");

  private final MemoryQos qos = new MemoryQos(SAMPLE);

  static Stream<Arguments> decisions() {
    return Stream.of(
        row(
            "bronze pod example, c0-lowprio",
            TEST_POD,
            "c0-lowprio",
            M100,
            "bronze",
            Map.of("memory.high", "50000000", "memory.swap.max", "max")),
        row(
            "bronze pod example, c1-normal",
            TEST_POD,
            "c1-normal",
            M100,
            "silver",
            Map.of("memory.high", "80000000", "memory.swap.max", "max")),
        row(
            "direct annotations override the class",
            TEST_POD,
            "c2-noswap",
            M100,
            "silver",
            Map.of("memory.high", "max", "memory.swap.max", "0")),
        row("no annotations, no files", Map.of("app", "x"), "c", M100, null, Map.of()),
        row("no annotations, no limit: fine", Map.of(), "c", 0, null, Map.of()),
        row(
            "annotation for another container is ignored",
            Map.of("class.memory-qos.nri.io/other", "gold"),
            "c",
            M100,
            null,
            Map.of()),
        row(
            "empty container-level class removes the pod class",
            Map.of("class.memory-qos.nri.io", "silver", "class.memory-qos.nri.io/c1", ""),
            "c1",
            0,
            null,
            Map.of()),
        row(
            "empty pod-level class means no class",
            Map.of("class.memory-qos.nri.io", ""),
            "c",
            M100,
            null,
            Map.of()),
        row(
            "removing the class keeps direct annotations",
            Map.of("class.memory-qos.nri.io/c1", "", "memory.high.memory-qos.nri.io", "max"),
            "c1",
            M100,
            null,
            Map.of("memory.high", "max")),
        row(
            "container-level direct value wins over pod-level",
            Map.of(
                "memory.high.memory-qos.nri.io", "1000", "memory.high.memory-qos.nri.io/c", "2000"),
            "c",
            0,
            null,
            Map.of("memory.high", "2000")),
        row(
            "one direct annotation overrides only its file",
            Map.of("class.memory-qos.nri.io", "bronze", "memory.swap.max.memory-qos.nri.io", "0"),
            "c",
            M100,
            "bronze",
            Map.of("memory.high", "50000000", "memory.swap.max", "0")),
        row(
            "direct values are verbatim",
            Map.of("memory.high.memory-qos.nri.io", "100M"),
            "c",
            0,
            null,
            Map.of("memory.high", "100M")),
        row(
            "Mi limit",
            Map.of("class.memory-qos.nri.io", "silver"),
            "c",
            104_857_600L,
            "silver",
            Map.of("memory.high", "83886080", "memory.swap.max", "max")));
  }

  private static Arguments row(
      String name,
      Map<String, String> annotations,
      String container,
      long limit,
      String qosClass,
      Map<String, String> unified) {
    return Arguments.of(name, annotations, container, limit, qosClass, unified);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decisions")
  void decides(
      String name,
      Map<String, String> annotations,
      String container,
      long limit,
      String qosClass,
      Map<String, String> unified) {
    MemoryQosDecision d = qos.decide(annotations, container, limit);
    assertEquals(new TreeMap<>(unified), d.unified());
    assertEquals(Optional.ofNullable(qosClass), d.qosClass());
    assertEquals(List.of(), d.warnings());
  }

  static Stream<Arguments> rejections() {
    return Stream.of(
        Arguments.of(
            Map.of("class.memory-qos.nri.io", "gold"),
            "c",
            M100,
            List.of(
                "class.memory-qos.nri.io: unknown class \"gold\", expected one of bronze,"
                    + " silver")),
        Arguments.of(
            Map.of("class.memory-qos.nri.io/c", "Bronze"),
            "c",
            M100,
            List.of(
                "class.memory-qos.nri.io/c: unknown class \"Bronze\", expected one of bronze,"
                    + " silver")),
        Arguments.of(
            Map.of("memory.oom.group.memory-qos.nri.io", "0"),
            "c",
            M100,
            List.of(
                "memory.oom.group.memory-qos.nri.io: file \"memory.oom.group\" may not be set"
                    + " by annotations, memory-qos.unifiedannotations allows memory.swap.max,"
                    + " memory.high")),
        Arguments.of(
            Map.of("class.memory-qos.nri.io", "silver"),
            "c1",
            0L,
            List.of(
                "class.memory-qos.nri.io: class \"silver\" (swaplimitratio 0.2) needs a memory"
                    + " limit, but the container has none: set resources.limits.memory or remove the"
                    + " class with class.memory-qos.nri.io/c1: \"\"")),
        Arguments.of(
            Map.of("memory.high.memory-qos.nri.io/c", ""),
            "c",
            M100,
            List.of(
                "memory.high.memory-qos.nri.io/c: empty value, give the value to write to"
                    + " memory.high (e.g. max or a number of bytes)")),
        Arguments.of(
            Map.of(
                "class.memory-qos.nri.io", "gold",
                "zz.top.memory-qos.nri.io", "1",
                "memory.min.memory-qos.nri.io/c", "1"),
            "c",
            M100,
            List.of(
                "class.memory-qos.nri.io: unknown class \"gold\", expected one of bronze, silver",
                "memory.min.memory-qos.nri.io/c: file \"memory.min\" may not be set by"
                    + " annotations, memory-qos.unifiedannotations allows memory.swap.max,"
                    + " memory.high",
                "zz.top.memory-qos.nri.io: file \"zz.top\" may not be set by annotations,"
                    + " memory-qos.unifiedannotations allows memory.swap.max, memory.high")));
  }

  @ParameterizedTest
  @MethodSource("rejections")
  void rejects(Map<String, String> annotations, String container, long limit, List<String> why) {
    MemoryQosException e =
        assertThrows(MemoryQosException.class, () -> qos.decide(annotations, container, limit));
    assertEquals(why, e.problems());
    assertEquals(
        "memory QoS of container " + container + ": " + String.join("; ", why), e.getMessage());
  }

  @Test
  void anEmptyConfigurationRejectsEveryAnnotation() {
    MemoryQos none = new MemoryQos(MemoryQosConfig.EMPTY);
    MemoryQosException e =
        assertThrows(
            MemoryQosException.class,
            () ->
                none.decide(
                    Map.of(
                        "class.memory-qos.nri.io",
                        "silver",
                        "memory.high.memory-qos.nri.io",
                        "max"),
                    "c",
                    M100));
    assertEquals(
        List.of(
            "class.memory-qos.nri.io: unknown class \"silver\", no classes are configured"
                + " (memory-qos.classes)",
            "memory.high.memory-qos.nri.io: file \"memory.high\" may not be set by annotations,"
                + " memory-qos.unifiedannotations allows none"),
        e.problems());
    assertEquals(MemoryQosDecision.NONE, none.decide(Map.of("a", "b"), "c", 0));
  }

  @Test
  void aClassWithRatioZeroSetsNothingAndNeedsNoLimit() {
    MemoryQos gold =
        new MemoryQos(new MemoryQosConfig(List.of(new MemoryQosClass("gold", 0f)), List.of()));
    MemoryQosDecision d = gold.decide(Map.of("class.memory-qos.nri.io", "gold"), "c", 0);
    assertEquals(Optional.of("gold"), d.qosClass());
    assertEquals(Map.of(), d.unified());
  }

  @Test
  void warnsAboutTheResourcePolicyContainerForm() {
    MemoryQosDecision d =
        qos.decide(
            Map.of(
                "class.memory-qos.nri.io/container.c1", "bronze",
                "class.memory-qos.nri.io/container.c2", "bronze"),
            "c1",
            M100);
    assertEquals(Map.of(), d.unified());
    assertEquals(
        List.of(
            "class.memory-qos.nri.io/container.c1: ignored, memory QoS annotations name the"
                + " container as class.memory-qos.nri.io/c1"),
        d.warnings());
  }

  @Test
  void rejectsANegativeLimit() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> qos.decide(Map.of(), "c", -1));
    assertEquals("negative memory limit -1", e.getMessage());
  }

  /** The float32 rows of the reference: the original plugin's results, byte for byte. */
  @ParameterizedTest
  @CsvSource({
    "100000000, 0.5, 50000000",
    "100000000, 0.2, 80000000",
    "104857600, 0.2, 83886080",
    "1073741824, 0.2, 858993472",
    "1073741824, 0.1, 966367616",
    "123456789, 0.5, 61728396",
    "1000000007, 0.5, 500000000",
    "1000000007, 1.0, 0",
    "1, 0.5, 0",
  })
  void computesMemoryHighInFloat32(long limit, float ratio, long expected) {
    assertEquals(expected, MemoryQos.memoryHigh(limit, ratio));
  }
}
