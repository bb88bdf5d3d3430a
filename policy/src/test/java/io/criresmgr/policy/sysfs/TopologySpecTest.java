package io.criresmgr.policy.sysfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.TopologySpec.DefaultDistances;
import io.criresmgr.policy.sysfs.TopologySpec.Group;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TopologySpecTest {
  private static final long GIB = 1L << 30;

  private static String error(String text) {
    return assertThrows(PolicyException.class, () -> TopologySpec.parse(text)).getMessage();
  }

  @Test
  void parsesTheReferenceListWithDefaults() {
    TopologySpec spec =
        TopologySpec.parse("[{\"mem\":\"2G\",\"cores\":2,\"nodes\":2,\"packages\":2}]");
    assertEquals(new TopologySpec(java.util.List.of(Group.cpus(2 * GIB, 2, 2, 2, 1, 2))), spec);
    assertEquals(CpuSet.EMPTY, spec.isolated());
    assertEquals(DefaultDistances.REFERENCE, spec.defaults());
  }

  @Test
  void yamlFlowAndNumericStringsReadTheSame() {
    assertEquals(
        TopologySpec.parse("[{\"mem\":\"2G\",\"cores\":2,\"nodes\":2,\"packages\":2}]"),
        TopologySpec.parse("[{mem: 2G, cores: \"2\", nodes: 2, packages: 2}]"));
  }

  @Test
  void theObjectFormCarriesIsolatedCpusAndDefaultDistances() {
    TopologySpec spec =
        TopologySpec.parse(
            "{groups: [{mem: 1G, cores: 4, dies: 2}], isolcpus: \"1-2\", dist-same-package: 12}");
    assertEquals(CpuSet.of(1, 2), spec.isolated());
    assertEquals(new DefaultDistances(11, 12, 21), spec.defaults());
    assertEquals(CpuSet.of(3), spec.withIsolated(CpuSet.of(3)).isolated());
  }

  @Test
  void threadsDefaultToThoseOfTheFirstGroupWithCores() {
    TopologySpec spec =
        TopologySpec.parse("[{mem: 1G}, {mem: 1G, cores: 2, threads: 1}, {mem: 1G, cores: 2}]");
    assertEquals(1, spec.groups().get(2).threads());
    assertEquals(2, TopologySpec.parse("[{mem: 1G, cores: 2}]").groups().get(0).threads());
  }

  @Test
  void readsOurAdditions() {
    TopologySpec spec =
        TopologySpec.parse(
            "[{mem: 8G, cores: 2, core-type: efficient, cpus-present: 4,"
                + " cpufreq: {min: 800000, max: 3000000, epp: power}},"
                + " {nvmem: 16G}, {mem: 2G, mem-type: hbm}, {mem: 8G, mem-type: cxl},"
                + " {mem: 8G, mem-type: dram}, {mem: 1T}]");
    Group cpus = spec.groups().get(0);
    assertEquals(CoreType.EFFICIENT, cpus.coreType());
    assertEquals(new CpuFrequency(800000, 3000000, 0, "power"), cpus.cpufreq());
    assertEquals(4, cpus.cpusPresent());
    assertEquals(Group.memoryOnly(16 * GIB, MemoryType.PMEM, Map.of()), spec.groups().get(1));
    assertEquals(MemoryType.HBM, spec.groups().get(2).memType());
    assertEquals(MemoryType.DRAM, spec.groups().get(3).memType());
    assertEquals(MemoryType.DRAM, spec.groups().get(4).memType());
    assertNull(spec.groups().get(5).memType());
    assertEquals(1L << 40, spec.groups().get(5).memBytes());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "[{\"mem\":\"2G\",\"cores\":\"two\"}]"
            + "|group 0: cores: \"two\": expected an integer >= 0",
        "[{mem: 2G, cores: 2}, {mem: lots}]"
            + "|group 1: mem: \"lots\": expected a size such as 2G, 512M or 0",
        "[{mem: 2G, cores: 2, threads: 0}]|group 0: threads: 0: expected an integer >= 1",
        "[{mem: 2G, cores: 2, packages: -1}]|group 0: packages: -1: expected an integer >= 1",
        "[{mem: 2G, cores: 1}, {mem: 4G, threads: 2}]"
            + "|group 1: threads: 2: a group without cores has no threads",
        "[{mem: 2G, cores: 1}, {mem: 4G, node-dist: {5: 17}}]"
            + "|group 1: node-dist: {\"5\":17}: there are nodes 0-1",
        "[{mem: 2G, cores: 1}, {mem: 4G, node-dist: {0: 5}}]"
            + "|group 1: node-dist: {\"0\":5}: expected distances 11-254 (10 is the node itself)",
        "[{mem: 2G, cores: 1}, {mem: 4G, node-dist: [0, 17]}]"
            + "|group 1: node-dist: [0,17]: expected node ids and distances such as {\"2\": 17}",
        "[{mem: 2G, cores: 1, mem-type: pmem}]"
            + "|group 0: mem-type: pmem: only memory-only groups (no cores) have one",
        "[{mem: 2G, cores: 1}, {mem: 1G, mem-type: nvram}]"
            + "|group 1: mem-type: \"nvram\": expected dram, cxl (the same: far DRAM), pmem or hbm",
        "[{mem: 2G, cores: 1}, {mem: 2G, mem-type: hbm}]"
            + "|group 1: mem: 2G: an hbm node must be smaller than the average node with CPUs (2G):"
            + " sysfs tells HBM from PMEM by size only",
        "[{mem: 2G, cores: 1}, {cores: 0}]|group 1: mem: 0: a group without cores needs memory",
        "[{mem: 2G, cores: 1, cpus: 4}]"
            + "|group 0: cpus: unknown key, expected one of mem, nvmem, cores, threads, nodes, dies,"
            + " packages, node-dist, cpus-present, mem-type, core-type, cpufreq, l3-cores,"
            + " l2-cores, dist-same-die, dist-same-package, dist-other-package",
        "[{mem: 2G, cores: 6, l3-cores: 4}]"
            + "|group 0: l3-cores: 4: expected a divisor of cores (6): the cores per L3 cache",
        "[{mem: 2G, cores: 6, l3-cores: 0}]|group 0: l3-cores: 0: expected an integer >= 1",
        "[{mem: 2G, cores: 6, l2-cores: 4}]"
            + "|group 0: l2-cores: 4: expected a divisor of cores (6): the cores per L2 cache",
        "[{mem: 2G, cores: 8, l3-cores: 4, l2-cores: 8}]"
            + "|group 0: l2-cores: 8: expected a divisor of l3-cores (4): an L2 cache within one L3"
            + " cache",
        "[{mem: 2G, cores: 1}, {mem: 1G, l2-cores: 2}]"
            + "|group 1: l2-cores: 2: a group without cores has no caches",
        "[{mem: 2G, cores: 1}, {mem: 1G, l3-cores: 2}]"
            + "|group 1: l3-cores: 2: a group without cores has no caches",
        "[{mem: 2G, cores: 1, core-type: big}]"
            + "|group 0: core-type: \"big\": expected performance or efficient",
        "[{mem: 2G, cores: 1, cpufreq: {max: 1, turbo: 2}}]"
            + "|group 0: cpufreq: {\"max\":1,\"turbo\":2}: expected {\"min\": kHz, \"max\": kHz,"
            + " \"base\": kHz, \"epp\": performance, balance_performance, balance_power or power}",
        "[{mem: 2G, cores: 1}, {nvmem: 2G, mem: 1G}]"
            + "|group 1: nvmem: \"2G\": only for memory-only groups without mem or mem-type"
            + " (nvmem is mem with mem-type pmem)",
        "[{mem: 4G}]|no CPUs: at least one group needs cores",
        "[]|expected a non-empty list of groups, got []",
        "[3]|group 0: expected an object such as {\"mem\":\"2G\",\"cores\":2}, got 3",
        "{groups: [{mem: 1G, cores: 1}], isolcpus: 2}|isolcpus: 2: present CPUs are 0-1",
        "{groups: [{mem: 1G, cores: 1}], cpus: 2}"
            + "|cpus: unknown key, expected one of groups, isolcpus, numa, dist-same-die,"
            + " dist-same-package, dist-other-package",
        "{groups: [{mem: 1G, cores: 1}], dist-same-die: 10}"
            + "|dist-same-die: 10: expected an integer >= 11",
        "[{mem: 1G, cores: 4096, packages: 4}]"
            + "|4 nodes and 32768 CPUs: at most 1024 nodes and 8192 CPUs",
      })
  void errorsNameTheGroupTheKeyAndTheValue(String text, String message) {
    assertEquals("topology spec: " + message, error(text));
  }

  @Test
  void duplicateKeysAreRejected() {
    assertTrue(
        error("[{mem: 1G, mem: 2G, cores: 1}]").startsWith("topology spec: not JSON or YAML:"));
  }

  @Test
  void unparsableAndEmptyTextIsReported() {
    assertEquals(
        "topology spec: empty, expected a list of groups such as [{\"mem\":\"2G\",\"cores\":2}]",
        error(" "));
    assertEquals("topology spec: not JSON or YAML: ", error("[{\"mem\": ").substring(0, 33));
  }

  @Test
  void numaTakesOnOrOffAndOffRefusesMemoryOnlyGroupsAndDistances() {
    assertTrue(TopologySpec.parse("{groups: [{mem: 2G, cores: 2}], numa: on}").numa());
    assertEquals(
        false,
        TopologySpec.parse("{\"groups\":[{\"mem\":\"2G\",\"cores\":2}],\"numa\":\"off\"}").numa());
    assertEquals(
        "topology spec: numa: \"no\": expected on or off",
        error("{groups: [{mem: 2G, cores: 2}], numa: \"no\"}"));
    assertEquals(
        "topology spec: group 1: cores: 0: with \"numa\":\"off\" there are no memory-only nodes",
        error("{groups: [{mem: 2G, cores: 2}, {mem: 4G}], numa: off}"));
    assertEquals(
        "topology spec: group 0: node-dist: {0=17}: with \"numa\":\"off\" there is one node",
        error("{groups: [{mem: 2G, cores: 2, packages: 2, node-dist: {\"0\": 17}}], numa: off}"));
  }

  @Test
  void builtInSpecsAreKnownByName() {
    assertEquals(
        java.util.List.of(
            "laptop", "n4c16", "n4c32", "c4pmem4", "n4c128", "n8c448", "tiered", "s8c4096",
            "numaoff", "epyc"),
        TopologySpec.builtInNames());
    assertEquals(
        TopologySpec.parse("[{\"mem\":\"2G\",\"cores\":2,\"nodes\":2,\"packages\":2}]"),
        TopologySpec.builtIn("n4c16"));
    assertEquals(
        "unknown built-in topology \"n5c16\", expected one of laptop, n4c16, n4c32, c4pmem4,"
            + " n4c128, n8c448, tiered, s8c4096, numaoff, epyc",
        assertThrows(PolicyException.class, () -> TopologySpec.builtIn("n5c16")).getMessage());
  }

  @Test
  void resolveTakesANameTextOrAFile(@TempDir Path dir) throws Exception {
    assertEquals(TopologySpec.builtIn("laptop"), TopologySpec.resolve(" laptop "));
    assertEquals(TopologySpec.builtIn("laptop"), TopologySpec.resolve("[{mem: 16G, cores: 4}]"));
    Path file = Files.writeString(dir.resolve("t.yaml"), "- {mem: 16G, cores: 4}\n");
    assertEquals(TopologySpec.builtIn("laptop"), TopologySpec.resolve(file.toString()));
    Files.writeString(file, "[{mem: 16G, cores: -4}]");
    assertEquals(
        file + ": group 0: cores: -4: expected an integer >= 0",
        assertThrows(PolicyException.class, () -> TopologySpec.resolve(file.toString()))
            .getMessage());
    assertEquals(
        "topology \"n9\" is not a built-in name (laptop, n4c16, n4c32, c4pmem4, n4c128, n8c448,"
            + " tiered, s8c4096, numaoff, epyc), a file or a JSON spec such as [{\"mem\":\"2G\",\"cores\":2}]",
        assertThrows(PolicyException.class, () -> TopologySpec.resolve("n9")).getMessage());
  }

  @Test
  void programmaticGroupsAreChecked() {
    assertEquals(
        "cores: -1: expected an integer >= 0",
        assertThrows(IllegalArgumentException.class, () -> Group.cpus(0, -1, 2, 1, 1, 1))
            .getMessage());
  }
}
