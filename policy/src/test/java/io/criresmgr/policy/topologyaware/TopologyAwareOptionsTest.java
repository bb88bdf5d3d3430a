package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TopologyAwareOptionsTest {
  private static final ObjectMapper YAML = new YAMLMapper();

  private static TopologyAwareOptions parse(String yaml) throws Exception {
    return TopologyAwareOptions.parse(YAML.readTree(yaml));
  }

  private static String error(String yaml) throws Exception {
    JsonNode node = YAML.readTree(yaml);
    return assertThrows(PolicyException.class, () -> TopologyAwareOptions.parse(node)).getMessage();
  }

  @Test
  void absentOrEmptySectionGivesTheCriResmgrDefaults() throws Exception {
    assertEquals(TopologyAwareOptions.DEFAULTS, parse("{}"));
    assertEquals(
        TopologyAwareOptions.DEFAULTS, TopologyAwareOptions.parse(MissingNode.getInstance()));
    assertEquals(TopologyAwareOptions.DEFAULTS, parse("PinCPU: null"));
    assertEquals(
        new TopologyAwareOptions(
            true,
            true,
            true,
            TopologyAwareOptions.SharedCpus.NONE,
            List.of("kube-system"),
            false,
            false,
            CpuPriority.NONE,
            TopologyAwareOptions.Level.PACKAGE,
            TopologyAwareOptions.CpuClassNames.NONE),
        TopologyAwareOptions.DEFAULTS);
    assertEquals(TopologyAwareOptions.DEFAULTS, TopologyAwareOptions.builder().build());
  }

  @Test
  void everyOptionInTheCriResmgrSpelling() throws Exception {
    String yaml =
        """
        PinCPU: false
        PinMemory: false
        PreferIsolatedCPUs: false
        PreferSharedCPUs: true
        ReservedPoolNamespaces: [monitoring, "infra-*"]
        ColocatePods: true
        ColocateNamespaces: true
        DefaultCPUPriority: high
        """;
    assertEquals(
        TopologyAwareOptions.builder()
            .pinCpu(false)
            .pinMemory(false)
            .preferIsolatedCpus(false)
            .preferSharedCpus(TopologyAwareOptions.SharedCpus.ALL)
            .reservedPoolNamespaces(List.of("monitoring", "infra-*"))
            .colocatePods(true)
            .colocateNamespaces(true)
            .defaultCpuPriority(CpuPriority.HIGH)
            .build(),
        parse(yaml));
  }

  @Test
  void everyOptionInTheNriSpelling() throws Exception {
    String yaml =
        """
        pinCPU: false
        pinMemory: false
        preferIsolatedCPUs: false
        preferSharedCPUs: true
        reservedPoolNamespaces: []
        colocatePods: true
        colocateNamespaces: true
        defaultCPUPriority: low
        """;
    assertEquals(
        TopologyAwareOptions.builder()
            .pinCpu(false)
            .pinMemory(false)
            .preferIsolatedCpus(false)
            .preferSharedCpus(TopologyAwareOptions.SharedCpus.ALL)
            .reservedPoolNamespaces(List.of())
            .colocatePods(true)
            .colocateNamespaces(true)
            .defaultCpuPriority(CpuPriority.LOW)
            .build(),
        parse(yaml));
  }

  @ParameterizedTest
  @CsvSource({"high, HIGH", "Normal, NORMAL", "LOW, LOW", "none, NONE"})
  void cpuPriorities(String value, CpuPriority expected) throws Exception {
    assertEquals(expected, parse("DefaultCPUPriority: " + value).defaultCpuPriority());
  }

  @ParameterizedTest
  @CsvSource({
    "UnlimitedBurstable: system, SYSTEM",
    "unlimitedBurstable: package, PACKAGE",
    "UnlimitedBurstable: Die, DIE",
    "unlimitedBurstable: NUMA, NUMA",
    "'{}', PACKAGE"
  })
  void unlimitedBurstableInBothSpellingsDefaultingToPackage(
      String yaml, TopologyAwareOptions.Level expected) throws Exception {
    assertEquals(expected, parse(yaml).unlimitedBurstable());
  }

  @Test
  void unlimitedBurstableNamesTheAcceptedValues() throws Exception {
    assertEquals(
        "policy.topology-aware.UnlimitedBurstable: invalid value \"socket\": expected system,"
            + " package, die or numa",
        error("unlimitedBurstable: socket"));
    assertEquals(
        "policy.topology-aware.UnlimitedBurstable: invalid value 2: expected system, package, die"
            + " or numa",
        error("UnlimitedBurstable: 2"));
  }

  @ParameterizedTest
  @CsvSource({
    "true, ALL",
    "'\"on\"', ALL",
    "false, NONE",
    "fractional, FRACTIONAL",
    "Fractional, FRACTIONAL"
  })
  void preferSharedCpus(String value, TopologyAwareOptions.SharedCpus expected) throws Exception {
    assertEquals(expected, parse("PreferSharedCPUs: " + value).preferSharedCpus());
  }

  @Test
  void preferSharedCpusNamesTheAcceptedValues() throws Exception {
    assertEquals(
        "policy.topology-aware.PreferSharedCPUs: invalid value \"whole\": expected true, false or"
            + " fractional",
        error("PreferSharedCPUs: whole"));
  }

  @Test
  void unknownKeysAreRejectedWithTheAcceptedOnes() throws Exception {
    assertEquals(
        "policy.topology-aware.PinCPUs: unknown key, expected one of PinCPU, PinMemory,"
            + " PreferIsolatedCPUs, PreferSharedCPUs, ReservedPoolNamespaces, ColocatePods,"
            + " ColocateNamespaces, DefaultCPUPriority, UnlimitedBurstable, ReservedPoolCPUClass,"
            + " SharedPoolCPUClass, DefaultExclusiveCPUClass",
        error("PinCPUs: true"));
    assertEquals(
        "policy.topology-aware.pinCPU: duplicate key (PinCPU is given twice, keys are"
            + " case-insensitive)",
        error("PinCPU: true\npinCPU: false"));
  }

  @ParameterizedTest
  @CsvSource({"DirtyBitScanPeriod: 10s", "PageMovePeriod: 2s", "pagemovecount: 100"})
  void removedPageMigrationKeysPointToTheController(String yaml) throws Exception {
    String key = yaml.substring(0, yaml.indexOf(':'));
    assertEquals(
        "policy.topology-aware."
            + key
            + ": no longer an option of this policy; page migration is configured in"
            + " resource-manager.control.page-migration (PageScanInterval, PageMoveInterval,"
            + " MaxPageMoveCount)",
        error(yaml));
  }

  @Test
  void badValuesNameKeyValueAndWhatIsAllowed() throws Exception {
    assertEquals(
        "policy.topology-aware.PinCPU: invalid value \"maybe\": expected true or false",
        error("PinCPU: maybe"));
    assertEquals(
        "policy.topology-aware.ColocatePods: invalid value 1: expected true or false",
        error("ColocatePods: 1"));
    assertEquals(
        "policy.topology-aware.DefaultCPUPriority: invalid value \"max\": expected high, normal,"
            + " low or none",
        error("DefaultCPUPriority: max"));
    assertEquals(
        "policy.topology-aware.DefaultCPUPriority: invalid value 1: expected high, normal, low or"
            + " none",
        error("DefaultCPUPriority: 1"));
    assertEquals(
        "policy.topology-aware.ReservedPoolNamespaces: invalid value \"kube-system\": expected a"
            + " list of namespace patterns such as [kube-system, \"infra-*\"]",
        error("ReservedPoolNamespaces: kube-system"));
    assertEquals(
        "policy.topology-aware.ReservedPoolNamespaces: invalid value 7: expected a list of"
            + " namespace patterns such as [kube-system, \"infra-*\"]",
        error("ReservedPoolNamespaces: [a, 7]"));
    assertEquals(
        "policy.topology-aware.ReservedPoolNamespaces: invalid pattern \"infra-[\": character"
            + " class at 6 is empty, unterminated or has a bad range (syntax: *, ?, [a-z], [^a-z],"
            + " \\c)",
        error("ReservedPoolNamespaces: [\"infra-[\"]"));
    assertEquals("policy.topology-aware: invalid value [1]: expected a mapping", error("[1]"));
  }
}
