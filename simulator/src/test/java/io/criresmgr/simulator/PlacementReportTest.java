package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The placement report's pool column and balloons table, from a balloons policy view. */
class PlacementReportTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String PODS =
      """
      "pods": [{"name": "pod0", "containers": [
        {"cacheId": "id0", "name": "pod0c0"}, {"cacheId": "id1", "name": "pod0c1"}]},
        {"name": "pod1", "containers": [{"cacheId": "id2", "name": "pod1c0"}]}]
      """;

  private static Observed observed(String view) throws Exception {
    JsonNode introspection = JSON.readTree("{" + PODS + ", \"policyView\": " + view + "}");
    Map<String, ContainerFacts> running = new LinkedHashMap<>();
    running.put("pod0c0", facts("pod0c0", "pod0", "2-3"));
    running.put("pod0c1", facts("pod0c1", "pod0", "2-3"));
    running.put("pod1c0", facts("pod1c0", "pod1", "0"));
    return new Observed(running, Set.of(), introspection, Set.of());
  }

  private static ContainerFacts facts(String name, String pod, String cpus) {
    CpuSet set = CpuSet.parse(cpus);
    return ContainerFacts.of(name, pod, "default", name, set, CpuSet.of(0), N4C16);
  }

  @Test
  void balloonsFillThePoolColumnAndTheirOwnTable() throws Exception {
    String view =
        """
        {"balloons": [
          {"name": "reserved[0]", "type": "reserved", "cpus": "0", "containers": [{"id": "id2"}]},
          {"name": "lc[0]", "type": "lc", "cpus": "2-3,4", "containers": [{"id": "id0"}, {"id": "id1"}]},
          {"name": "default[0]", "type": "default", "cpus": "", "containers": []}]}
        """;
    String report = PlacementReport.format(observed(view), N4C16);
    assertTrue(report.contains("pod0/pod0c0    2-3   0     0      lc[0]\n"), report);
    assertTrue(report.contains("pod1/pod1c0    0     0     0      reserved[0]\n"), report);
    assertTrue(
        report.endsWith(
            """

            BALLOON      TYPE      CPUS     NODES  CONTAINERS
            reserved[0]  reserved  1 (0)    0      pod1c0
            lc[0]        lc        3 (2-4)  0,1    pod0c0,pod0c1
            default[0]   default   -        -      -
            """),
        report);
  }

  @Test
  void withoutBalloonsThereIsNoBalloonsTable() throws Exception {
    String report = PlacementReport.format(observed("{\"pools\": []}"), N4C16);
    assertFalse(report.contains("BALLOON"), report);
    assertTrue(report.contains("pod0/pod0c0    2-3   0     0      -\n"), report);
  }

  @Test
  void cpuClassesAndDeviceHintsGetTablesOfTheirOwn() throws Exception {
    String pods =
        """
        "pods": [{"name": "pod0", "containers": [
          {"cacheId": "id0", "name": "pod0c0", "topologyHints": [
            {"provider": "/dev/vfio/7", "cpus": "12-15", "numas": "3"},
            {"provider": "/dev/nvme0n1", "cpus": "", "numas": "1"}]},
          {"cacheId": "id1", "name": "pod0c1"}]}]
        """;
    String view = "{\"pools\": [], \"cpuClasses\": {\"shared\": \"1-11\", \"turbo\": \"12-15\"}}";
    JsonNode introspection = JSON.readTree("{" + pods + ", \"policyView\": " + view + "}");
    Map<String, ContainerFacts> running = new LinkedHashMap<>();
    running.put("pod0c0", facts("pod0c0", "pod0", "12-15"));
    String report =
        PlacementReport.format(new Observed(running, Set.of(), introspection, Set.of()), N4C16);
    assertTrue(
        report.endsWith(
            """

            CPU CLASS  CPUS
            shared     11 (1-11)
            turbo      4 (12-15)

            POD/CONTAINER  DEVICE        CPUS   NUMA NODES
            pod0/pod0c0    /dev/vfio/7   12-15  3
            pod0/pod0c0    /dev/nvme0n1  -      1
            """),
        report);
    assertFalse(PlacementReport.format(observed("{\"pools\": []}"), N4C16).contains("CPU CLASS"));
  }
}
