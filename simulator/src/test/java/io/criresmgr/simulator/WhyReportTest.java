package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Finding a container's explanation, or its refusal, in a node model. */
class WhyReportTest {
  private static final JsonNode MODEL = model();

  private static JsonNode model() {
    try {
      return new ObjectMapper()
          .readTree(
              """
              {"format": 1, "pods": [
                {"name": "web", "namespace": "default", "containers": [
                  {"cacheId": "uid-web:app", "id": "0123456789abcdef", "name": "app",
                   "state": "running", "cpus": "2-3", "mems": "0",
                   "why": {"summary": "pool NUMA node #0: fewest colocated containers",
                           "candidates": [{"name": "NUMA node #0", "score": "shared 1000m left",
                                           "verdict": "chosen"}]}},
                  {"cacheId": "uid-web:side", "id": "fedcba", "name": "side",
                   "state": "running", "cpus": "", "mems": ""}]},
                {"name": "db", "namespace": "prod", "containers": [
                  {"cacheId": "uid-db:app", "id": "99", "name": "app", "state": "running",
                   "cpus": "4", "mems": "1", "why": {"summary": "template: the shared pool 4",
                   "candidates": []}}]}],
               "refusals": [
                {"namespace": "default", "pod": "big", "container": "c0",
                 "at": "2026-01-01T00:00:00Z", "message": "failed to allocate: no room",
                 "why": {"summary": "refused: no pool has room", "candidates": []}}]}
              """);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aContainerIsFoundByPodAndNameIdPrefixOrCacheId() {
    List<String> expected =
        List.of(
            "default/web/app (running, cpus 2-3, mems 0)",
            "pool NUMA node #0: fewest colocated containers",
            "  NUMA node #0: shared 1000m left: chosen");
    assertEquals(expected, WhyReport.lines(MODEL, "web/app"));
    assertEquals(expected, WhyReport.lines(MODEL, "default/web/app"));
    assertEquals(expected, WhyReport.lines(MODEL, "01234567"));
    assertEquals(expected, WhyReport.lines(MODEL, "uid-web:app"));
  }

  @Test
  void aContainerWithoutExplanationSaysSo() {
    assertEquals(
        List.of(
            "default/web/side (running, cpus any, mems any)",
            "the policy gave no explanation (placed before the daemon started?)"),
        WhyReport.lines(MODEL, "side"));
  }

  @Test
  void aRefusedContainerShowsTheRefusal() {
    assertEquals(
        List.of(
            "default/big/c0 (refused at 2026-01-01T00:00:00Z)",
            "refused: no pool has room",
            "error: failed to allocate: no room"),
        WhyReport.lines(MODEL, "big/c0"));
  }

  @Test
  void anAmbiguousOrUnknownNameIsAnError() {
    assertEquals(
        "app names 2 containers: default/web/app, prod/db/app; give pod/container or"
            + " namespace/pod/container",
        assertThrows(IllegalArgumentException.class, () -> WhyReport.lines(MODEL, "app"))
            .getMessage());
    assertEquals(
        "no container or refusal nope (give a container name, id, pod/container or"
            + " namespace/pod/container)",
        assertThrows(IllegalArgumentException.class, () -> WhyReport.lines(MODEL, "nope"))
            .getMessage());
  }
}
