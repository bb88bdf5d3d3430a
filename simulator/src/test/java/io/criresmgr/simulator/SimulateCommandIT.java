package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.proxy.CommandTree;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cri-resmgr simulate}: output and exit status 0, 1 and 2. */
class SimulateCommandIT {
  private static final String SCENARIO =
      """
      topology: n4c16
      config: "policy: {Active: template}"
      steps:
        - create: {cpu: 2}
        - verify:
            pod0c0: {cpus: [0, 1]}
      """;

  private static final String BALLOONS =
      """
      topology: n4c16
      config: |
        policy:
          Active: balloons
          ReservedResources: {CPU: "cpuset:0"}
          balloons:
            BalloonTypes:
              - {Name: lc, MinCPUs: 2, MaxCPUs: 2, MaxBalloons: 1}
              - {Name: default, MinCPUs: 1, MaxCPUs: 1}
      steps:
        - create: {template: besteffort, namespace: kube-system}
        - create:
            contcount: 2
            cpu: 1
            annotations: {balloon.balloons.cri-resource-manager.intel.com: lc}
        - expect-error:
            create: {cpu: 1, annotations: {balloon.balloons.cri-resource-manager.intel.com: lc}}
            message: no suitable balloon instance available
        - verify:
            pod0c0: {cpus: [0]}
            pod1c0: {cpus: [2, 3]}
      """;

  @TempDir Path dir;

  private record Run(int status, String out, String err) {}

  private Run simulate(String scenario, String... extra) throws IOException {
    Path file = dir.resolve("s.yaml");
    Files.writeString(file, scenario);
    String[] args = new String[extra.length + 3];
    args[0] = "simulate";
    args[1] = "--pods";
    args[2] = file.toString();
    System.arraycopy(extra, 0, args, 3, extra.length);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        CommandTree.run(
            args,
            new PrintWriter(out),
            new PrintWriter(err),
            (o, s, early) -> {
              throw new AssertionError("the daemon command must not run");
            },
            List.of(new SimulateCommand()));
    return new Run(status, out.toString(), err.toString());
  }

  @Test
  void printsThePlacementAndPasses() throws IOException {
    Run run = simulate(SCENARIO);
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("== placement after step 2 (verify, line 5)"), run.out());
    assertTrue(run.out().contains("pod0/pod0c0    0-1   0-3   0      exclusive"), run.out());
    assertTrue(run.out().contains("node0  4 (0-3)    2 (0-1)  -       2 (2-3)"), run.out());
    assertTrue(run.out().contains("PASS: "), run.out());
  }

  @Test
  void printsBalloonsPlacementsAndRefusals() throws IOException {
    Run run = simulate(BALLOONS);
    assertEquals(0, run.status(), run.err() + run.out());
    String end = run.out().substring(run.out().indexOf("== placement at the end"));
    assertTrue(end.contains("pod0/pod0c0    0     0     0      "), end);
    assertTrue(end.contains("pod1/pod1c0    2-3   0     0      "), end);
    assertTrue(end.contains("pod1/pod1c1    2-3   0     0      "), end);
    assertTrue(end.contains("node0  4 (0-3)    1 (0)  2 (2-3)  1 (1)"), end);
    // The balloons view of /introspect names each container's balloon.
    assertTrue(end.contains("pod1/pod1c0    2-3   0     0      lc[0]"), end);
    assertTrue(end.contains("pod1c0,pod1c1\n"), end);
    assertTrue(run.out().contains("PASS: "), run.out());
  }

  @Test
  void aFailedExpectationExitsWith1() throws IOException {
    Run run = simulate(SCENARIO.replace("[0, 1]", "[0, 2]"));
    assertEquals(1, run.status(), run.err());
    assertTrue(
        run.err()
            .contains(
                "step 2 (verify, line 5): pod0c0 cpus: expected {cpu0,cpu2}," + " got {cpu0,cpu1}"),
        run.err());
  }

  @Test
  void topologyAndConfigFlagsOverrideTheFile() throws IOException {
    Path config = dir.resolve("c.cfg");
    Files.writeString(config, "policy: {Active: template, AvailableResources: {CPU: cpuset:2-3}}");
    Run run =
        simulate(
            SCENARIO.replace("[0, 1]", "[2, 3]"),
            "--topology",
            "laptop",
            "--config",
            config.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("node0  8 (0-7)"), run.out());
  }

  @Test
  void aBadScenarioExitsWith2() throws IOException {
    Run run = simulate(SCENARIO.replace("cpu: 2", "cpu: lots"));
    assertEquals(2, run.status());
    assertTrue(
        run.err().contains("s.yaml:4: steps[0].create.cpu: invalid CPU quantity"), run.err());
    assertEquals(2, simulate(SCENARIO, "--topology", "n99").status());
    assertEquals(2, simulate(SCENARIO.replace("template}", "templat}")).status());
  }

  @Test
  void htmlWritesTheNodeAtTheEndAsOneSelfContainedPage() throws IOException {
    Path page = dir.resolve("node.html");
    Run run = simulate(BALLOONS, "--html", page.toString());
    assertEquals(0, run.status(), run.err() + run.out());
    String html = Files.readString(page);
    JsonNode model = new ObjectMapper().readTree(embeddedModel(html));
    assertEquals("balloons", model.get("policy").asText());
    Map<String, CpuSet> drawn = new TreeMap<>();
    for (JsonNode pod : model.get("pods")) {
      for (JsonNode c : pod.get("containers")) {
        drawn.put(
            pod.get("name").asText() + "/" + c.get("name").asText(),
            CpuSet.parse(c.get("cpus").asText()));
      }
    }
    assertEquals(tableAtTheEnd(run.out()), drawn, html);
    assertEquals(4, model.get("topology").get("nodes").size());
    assertFalse(html.contains("http://") || html.contains("https://"), "fetches nothing");
    assertFalse(html.contains("src="), "no script from elsewhere");
    assertFalse(html.contains("href="), "no style from elsewhere");
    assertTrue(html.contains("function render("), "the script inline");
  }

  @Test
  void anHtmlFileThatCannotBeWrittenExitsWith2() throws IOException {
    Path page = dir.resolve("missing/node.html");
    Run run = simulate(SCENARIO, "--html", page.toString());
    assertEquals(2, run.status(), run.err());
    assertTrue(run.err().contains("simulate: --html " + page + ": cannot write: "), run.err());
  }

  /** The JSON assigned to window.NODE_MODEL. */
  private static String embeddedModel(String html) {
    String start = "<script>window.NODE_MODEL = ";
    int from = html.indexOf(start);
    assertTrue(from >= 0, html);
    from += start.length();
    return html.substring(from, html.indexOf(";</script>", from));
  }

  /** Pod/container to CPUs, from the placement table printed at the end. */
  private static Map<String, CpuSet> tableAtTheEnd(String out) {
    List<String> lines =
        out.substring(out.indexOf("== placement at the end")).lines().skip(2).toList();
    Map<String, CpuSet> placed = new TreeMap<>();
    for (String line : lines) {
      if (line.isBlank()) {
        break;
      }
      String[] columns = line.trim().split("\\s+", -1);
      placed.put(columns[0], CpuSet.parse(columns[1]));
    }
    assertFalse(placed.isEmpty(), out);
    return placed;
  }
}
