package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.MemoryType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Memory types, amounts and cold start (docs/policy/topology-aware.md, "How a request becomes a
 * grant").
 */
class MemoryPreferencesTest {
  private static final Set<MemoryType> ALL = EnumSet.allOf(MemoryType.class);
  private static final Set<MemoryType> DRAM_PMEM = EnumSet.of(MemoryType.DRAM, MemoryType.PMEM);
  private static final String TYPE = Annotations.key(Annotations.MEMORY_TYPE);
  private static final String OLD_TYPE = Annotations.deprecatedKey(Annotations.MEMORY_TYPE);
  private static final String COLD = Annotations.key(Annotations.COLD_START);
  private static final String OLD_COLD = Annotations.deprecatedKey(Annotations.COLD_START);

  private static MemoryRequest request(
      QosClass qos, Resources resources, Map<String, String> annotations, Set<MemoryType> present) {
    Pod pod = Workloads.pod("default", qos, annotations);
    Container c = Workloads.container(pod, "c0", resources);
    return Preferences.memory(c, pod, TopologyAwareOptions.DEFAULTS, present);
  }

  private static MemoryRequest request(Map<String, String> annotations, Set<MemoryType> present) {
    return request(QosClass.BURSTABLE, Resources.NONE, annotations, present);
  }

  private static Set<MemoryType> types(String labels) {
    Set<MemoryType> out = EnumSet.noneOf(MemoryType.class);
    for (String l : labels.split(",", -1)) {
      out.add(MemoryType.valueOf(l));
    }
    return out;
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "                           | DRAM,PMEM,HBM | DRAM,PMEM",
        "                           | DRAM,HBM      | DRAM",
        "                           | PMEM,HBM      | PMEM",
        "                           | HBM           | HBM",
        "                           | DRAM          | DRAM",
        "dram                       | DRAM,PMEM,HBM | DRAM",
        "pmem,dram                  | DRAM,PMEM,HBM | DRAM,PMEM",
        "HBM, Dram                  | DRAM,PMEM,HBM | DRAM,HBM",
        "mixed                      | DRAM,PMEM,HBM | DRAM,PMEM,HBM",
        "mixed                      | DRAM,PMEM     | DRAM,PMEM",
        "dram,hbm                   | DRAM,PMEM     | DRAM",
        "''                         | DRAM,PMEM,HBM | DRAM,PMEM"
      })
  void typesFromTheEffectiveAnnotation(String value, String present, String expected) {
    Map<String, String> annotations = value == null ? Map.of() : Map.of(TYPE + "/pod", value);
    assertEquals(types(expected), request(annotations, types(present)).types());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "pmem                | PMEM",
        "'dram,pmem'         | DRAM,PMEM",
        "'c0: pmem'          | PMEM",
        "'{c0: hbm, c1: pmem}' | HBM",
        "'c1: pmem'          | DRAM,PMEM",
        "'c0: '              | DRAM,PMEM"
      })
  void typesFromTheDeprecatedAnnotation(String value, String expected) {
    assertEquals(types(expected), request(Map.of(OLD_TYPE, value), ALL).types());
  }

  @Test
  void effectiveTypesWinOverDeprecatedOnesAndNriIsAccepted() {
    assertEquals(
        types("HBM"),
        request(Map.of(OLD_TYPE, "pmem", Annotations.nriKey(Annotations.MEMORY_TYPE), "hbm"), ALL)
            .types());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "memory-type.cri-resource-manager.intel.com | dram,ddr5 | expected a comma-separated list of"
            + " dram, pmem, hbm, mixed",
        "memory-type.cri-resource-manager.intel.com | dram, | expected a comma-separated list of"
            + " dram, pmem, hbm, mixed",
        "memory-type.cri-resource-manager.intel.com | pmem | the node has only dram,hbm memory",
        "cri-resource-manager.intel.com/memory-type | 'c0: [dram]' | expected dram, pmem, hbm,"
            + " mixed or a map of container names to them",
        "cri-resource-manager.intel.com/memory-type | flash | expected a comma-separated list of"
            + " dram, pmem, hbm, mixed"
      })
  void malformedTypes(String key, String value, String expected) {
    String message =
        assertThrows(
                PolicyException.class,
                () -> request(Map.of(key, value), EnumSet.of(MemoryType.DRAM, MemoryType.HBM)))
            .getMessage();
    assertEquals("annotation " + key + ": invalid value \"" + value + "\": " + expected, message);
  }

  // Burstable containers reserve their request (nri-plugins), not their limit (cri-resmgr).
  @ParameterizedTest
  @CsvSource({
    "GUARANTEED, 1000, 1000, 1000, 1000",
    "BURSTABLE, 500, 2000, 500, 2000",
    "BURSTABLE, 500, 0, 500, 0",
    "BURSTABLE, 0, 0, 0, 0",
    "BEST_EFFORT, 0, 0, 0, 0"
  })
  void amounts(QosClass qos, long request, long limit, long expected, long expectedLimit) {
    Resources r = new Resources(0, 0, request, limit);
    assertEquals(expected, request(qos, r, Map.of(), ALL).bytes());
    assertEquals(expectedLimit, request(qos, r, Map.of(), ALL).limitBytes());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "cold-start.cri-resource-manager.intel.com/container.c0 | 'duration: 10s' | PT10S",
        "cold-start.resource-policy.nri.io/pod | '{duration: 1m30s}' | PT1M30S",
        "cold-start.cri-resource-manager.intel.com | 'Duration: 1h' | PT1H",
        "cold-start.cri-resource-manager.intel.com | 'duration: 0' | PT0S",
        "cold-start.cri-resource-manager.intel.com | '{}' | PT0S",
        "cri-resource-manager.intel.com/cold-start | 'c0: {duration: 500ms}' | PT0.5S",
        "cri-resource-manager.intel.com/cold-start | 'c1: {duration: 5s}' | PT0S"
      })
  void coldStart(String key, String value, Duration expected) {
    assertEquals(expected, request(Map.of(key, value), DRAM_PMEM).coldStart());
  }

  @Test
  void coldStartNeedsBothDramAndPmem() {
    Map<String, String> cold = Map.of(COLD, "duration: 10s");
    assertEquals(Duration.ofSeconds(10), request(cold, ALL).coldStart());
    assertEquals(Duration.ZERO, request(cold, EnumSet.of(MemoryType.DRAM)).coldStart());
    Map<String, String> pmemOnly = Map.of(COLD, "duration: 10s", TYPE, "pmem");
    assertEquals(Duration.ZERO, request(pmemOnly, ALL).coldStart());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "cold-start.cri-resource-manager.intel.com | 'duration: 61m'",
        "cold-start.cri-resource-manager.intel.com | 'duration: -1s'",
        "cold-start.cri-resource-manager.intel.com | 'duration: 10'",
        "cold-start.cri-resource-manager.intel.com | 'duration: soon'",
        "cold-start.cri-resource-manager.intel.com | 10s",
        "cold-start.cri-resource-manager.intel.com | '{duration: 1s, delay: 2s}'",
        "cold-start.cri-resource-manager.intel.com | '{delay: 2s}'",
        "cold-start.cri-resource-manager.intel.com | 'duration: [1s]'"
      })
  void malformedColdStart(String key, String value) {
    String message =
        assertThrows(PolicyException.class, () -> request(Map.of(key, value), DRAM_PMEM))
            .getMessage();
    assertEquals(
        "annotation "
            + key
            + ": invalid value \""
            + value
            + "\": expected {duration: D} with D between 0 and 1h, a duration such as 15s, 1m30s"
            + " or 500ms (units ns, us, ms, s, m, h)",
        message);
  }

  @Test
  void malformedDeprecatedColdStart() {
    String message =
        assertThrows(PolicyException.class, () -> request(Map.of(OLD_COLD, "10s"), DRAM_PMEM))
            .getMessage();
    assertEquals(
        "annotation cri-resource-manager.intel.com/cold-start: invalid value \"10s\": expected a"
            + " map of container names to {duration: D} with D between 0 and 1h, a duration such"
            + " as 15s, 1m30s or 500ms (units ns, us, ms, s, m, h)",
        message);
  }

  @Test
  void memoryPreserve() {
    String key = Annotations.nriKey(Annotations.MEMORY_PRESERVE) + "/container.c0";
    assertEquals(true, request(Map.of(key, "true"), ALL).preserve());
    assertEquals(false, request(Map.of(), ALL).preserve());
  }

  @Test
  void aNodeWithoutMemoryTypesIsAnError() {
    String message =
        assertThrows(IllegalArgumentException.class, () -> request(Map.of(), Set.of()))
            .getMessage();
    assertEquals("the node has no memory types", message);
  }
}
