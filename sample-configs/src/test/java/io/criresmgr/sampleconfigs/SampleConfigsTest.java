package io.criresmgr.sampleconfigs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.criresmgr.policy.balloons.BalloonType;
import io.criresmgr.policy.balloons.BalloonsOptions;
import io.criresmgr.policy.balloons.ShareLevel;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every sample configuration in this module parses with the daemon's real loader. */
class SampleConfigsTest {
  private static final Path MODULE_DIR = Path.of(System.getProperty("basedir", "."));

  private static List<Path> samples() throws IOException {
    try (Stream<Path> files = Files.list(MODULE_DIR)) {
      return files
          .filter(p -> p.toString().endsWith(".cfg") || p.toString().endsWith(".cfg.sample"))
          .sorted()
          .toList();
    }
  }

  @Test
  void samplesExist() throws IOException {
    assertTrue(samples().size() >= 3, () -> "too few samples in " + MODULE_DIR.toAbsolutePath());
  }

  @TestFactory
  Stream<DynamicTest> everySampleParses() throws IOException {
    ConfigLoader loader = ConfigLoader.builtIn();
    return samples().stream()
        .map(
            file ->
                DynamicTest.dynamicTest(
                    file.getFileName().toString(),
                    () -> {
                      try {
                        loader.load(file);
                      } catch (ConfigException e) {
                        fail(e.getMessage());
                      }
                    }));
  }

  /**
   * Every ConfigMap of the agent example is a configuration the daemon accepts: its data parsed as
   * the config socket parses what the agent pushes.
   */
  @Test
  void everyExampleConfigMapIsAValidAgentConfiguration() throws IOException {
    com.fasterxml.jackson.databind.ObjectMapper yaml =
        new com.fasterxml.jackson.databind.ObjectMapper(
            new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
    ConfigLoader loader = ConfigLoader.builtIn();
    List<String> names = new java.util.ArrayList<>();
    try (com.fasterxml.jackson.databind.MappingIterator<com.fasterxml.jackson.databind.JsonNode>
        it =
            yaml.readerFor(com.fasterxml.jackson.databind.JsonNode.class)
                .readValues(MODULE_DIR.resolve("cri-resmgr-configmap.example.yaml").toFile())) {
      while (it.hasNext()) {
        com.fasterxml.jackson.databind.JsonNode map = it.next();
        assertEquals("ConfigMap", map.path("kind").asText());
        String name = map.path("metadata").path("name").asText();
        java.util.Map<String, String> data = new java.util.LinkedHashMap<>();
        map.path("data").properties().forEach(e -> data.put(e.getKey(), e.getValue().asText()));
        try {
          loader.parseSections(name, data);
        } catch (ConfigException e) {
          fail(e.getMessage());
        }
        names.add(name);
      }
    }
    assertEquals(
        List.of(
            "cri-resmgr-config.default",
            "cri-resmgr-config.group.latency",
            "cri-resmgr-config.node.worker-1"),
        names);
  }

  /** The balloons sample means what its comments say: every type and option is read. */
  @Test
  void balloonsSampleConfiguresItsTypes() {
    Config config = ConfigLoader.builtIn().load(MODULE_DIR.resolve("balloons-policy.cfg"));
    assertEquals("balloons", config.policy().active());
    assertEquals("cpuset:0", config.policy().reservedResources().get("CPU"));
    BalloonsOptions o = BalloonsOptions.parse(config.policy().options().get("balloons"));
    assertEquals("powersave", o.idleCpuClass());
    assertEquals(
        List.of("reserved", "latency-critical", "batch", "default"),
        o.effectiveTypes().stream().map(BalloonType::name).toList());
    BalloonType lc = o.balloonTypes().get(0);
    assertEquals(
        List.of(2, 4, 1, 3),
        List.of(lc.minCpus(), lc.maxCpus(), lc.minBalloons(), lc.maxBalloons()));
    assertEquals("turbo", lc.cpuClass());
    assertTrue(lc.preferNewBalloons() && !lc.preferSpreadingPods(), lc::toString);
    assertEquals(ShareLevel.NUMA, lc.shareIdleCpusInSame());
    assertTrue(o.preferSpreadOnPhysicalCores(lc), lc::toString);
    BalloonType batch = o.balloonTypes().get(1);
    assertEquals(List.of("batch-*"), batch.namespaces());
    assertTrue(batch.preferPerNamespaceBalloon() && batch.preferSpreadingPods(), batch::toString);
    assertEquals(false, o.pinMemory(batch));
    BalloonType dflt = o.balloonTypes().get(2);
    assertEquals(List.of(1, 6), List.of(dflt.minCpus(), dflt.maxCpus()));
    assertEquals(ShareLevel.PACKAGE, dflt.shareIdleCpusInSame());
    assertTrue(o.effectiveTypes().get(0).namespaces().contains("monitoring"));
  }
}
