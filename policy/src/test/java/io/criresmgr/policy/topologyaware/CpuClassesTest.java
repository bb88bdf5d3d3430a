package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.CpuClassNames;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

/**
 * CPU classes under topology-aware on n4c16 (CPU 0 reserved): the reserved CPUs, each container's
 * exclusive CPUs and the rest get the configured or annotated classes, reported with every
 * decision, and a released container's CPUs go back to the shared class.
 */
class CpuClassesTest {
  private static final String NRI_CLASS = "cpu-class.resource-policy.nri.io";
  private static final String CRI_CLASS = "cpu-class.cri-resource-manager.intel.com";
  private static final CpuClassNames NAMES = new CpuClassNames("res", "shared", "excl");
  private static final CpuSet ALLOWED = CpuSet.range(0, 15);

  private static Harness n4c16(CpuClassNames names) {
    return Harness.withPreferences(
        Topologies.n4c16(CpuSet.EMPTY),
        Map.of(),
        "750m",
        TopologyAwareOptions.builder().cpuClasses(names).build());
  }

  private static Resources guaranteed(long milli) {
    return new Resources(milli, milli, 100 * MB, 100 * MB);
  }

  private static SortedMap<String, CpuSet> classes(Harness h) {
    return h.last.cpuClasses().orElseThrow();
  }

  @Test
  void reservedExclusiveAndSharedCpusGetTheirClasses() {
    Harness h = n4c16(NAMES);
    h.create("default", "pod0", 1, guaranteed(2000));
    h.create("default", "pod1", 1, new Resources(500, 1000, 100 * MB, 100 * MB));

    CpuSet excl = h.cpus("pod0c0");
    assertEquals(2, excl.size());
    assertEquals(
        Map.of(
            "res", CpuSet.of(0),
            "excl", excl,
            "shared", ALLOWED.difference(CpuSet.of(0)).difference(excl)),
        classes(h));
  }

  @Test
  void anAnnotatedContainerGetsItsOwnClassPerContainerOrPod() {
    Harness h = n4c16(NAMES);
    h.create(
        "default",
        "pod0",
        2,
        guaranteed(1000),
        Map.of(NRI_CLASS + "/container.pod0c1", "turbo", CRI_CLASS + "/pod", "fast"));

    assertEquals(h.cpus("pod0c0"), classes(h).get("fast"));
    assertEquals(h.cpus("pod0c1"), classes(h).get("turbo"));
    assertEquals(null, classes(h).get("excl"));
  }

  @Test
  void releasedExclusiveCpusGoBackToTheSharedClass() {
    Harness h = n4c16(NAMES);
    h.create("default", "pod0", 1, guaranteed(3000));
    assertEquals(3, classes(h).get("excl").size());

    h.delete("pod0");

    assertEquals(
        Map.of("res", CpuSet.of(0), "shared", ALLOWED.difference(CpuSet.of(0))), classes(h));
  }

  @Test
  void aRestartedPolicyReportsTheSameClasses() {
    Harness h = n4c16(NAMES);
    h.create("default", "pod0", 1, guaranteed(2000), Map.of(NRI_CLASS, "turbo"));
    SortedMap<String, CpuSet> before = classes(h);

    h.recreate(Map.of(), "750m", TopologyAwareOptions.builder().cpuClasses(NAMES).build());
    h.apply(h.policy.start(h.node.cache()));

    assertEquals(before, classes(h));
    assertEquals(h.cpus("pod0c0"), before.get("turbo"));
  }

  @Test
  void withoutClassesNothingIsClassified() {
    Harness h = n4c16(CpuClassNames.NONE);
    h.create("default", "pod0", 1, guaranteed(2000));

    assertEquals(Map.of(), classes(h));
  }

  @Test
  void aClassAnnotationOnANonGuaranteedContainerIsRefused() {
    Harness h = n4c16(NAMES);
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () ->
                h.create(
                    "default",
                    "pod0",
                    1,
                    new Resources(1000, 2000, 100 * MB, 100 * MB),
                    Map.of(NRI_CLASS, "turbo")));
    assertEquals(
        "annotation cpu-class.resource-policy.nri.io: invalid value \"turbo\": a CPU class is"
            + " given to exclusive CPUs, which only Guaranteed containers get; pod0:pod0c0 is"
            + " Burstable",
        e.getMessage());
    assertThrows(
        PolicyException.class,
        () -> h.create("default", "pod1", 1, guaranteed(1000), Map.of(CRI_CLASS, " ")));
  }

  @Test
  void optionsAcceptBothSpellingsAndRejectNonStrings() throws Exception {
    ObjectMapper json = new ObjectMapper();
    JsonNode nri =
        json.readTree(
            "{\"reservedPoolCpuClass\": \"r\", \"sharedPoolCpuClass\": \"s\","
                + " \"defaultExclusiveCpuClass\": \"e\"}");
    assertEquals(new CpuClassNames("r", "s", "e"), TopologyAwareOptions.parse(nri).cpuClasses());
    JsonNode cri = json.readTree("{\"SharedPoolCPUClass\": \"s\"}");
    assertEquals(new CpuClassNames("", "s", ""), TopologyAwareOptions.parse(cri).cpuClasses());
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> TopologyAwareOptions.parse(json.readTree("{\"SharedPoolCPUClass\": 3}")));
    assertTrue(e.getMessage().contains("SharedPoolCPUClass: invalid value 3"), e.getMessage());
  }
}
