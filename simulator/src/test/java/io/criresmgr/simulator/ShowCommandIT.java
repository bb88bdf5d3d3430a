package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.proxy.CommandTree;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cri-resmgr show}: against the daemon of a scenario run (in front of the simulated
 * runtime), it prints the tables the simulator prints for the same moment.
 */
class ShowCommandIT {
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
        - create: {cpu: 1}
      """;

  @TempDir Path dir;

  private record Run(int status, String out, String err) {}

  private static Run show(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = "show";
    System.arraycopy(args, 0, all, 1, args.length);
    int status =
        CommandTree.run(
            all,
            new PrintWriter(out),
            new PrintWriter(err),
            (o, s, early) -> {
              throw new AssertionError("the daemon command must not run");
            },
            List.of(new ShowCommand()));
    return new Run(status, out.toString(), err.toString());
  }

  @Test
  void printsTheLiveNodeAsTheSimulatorsTables() throws Exception {
    Path file = dir.resolve("s.yaml");
    Files.writeString(file, BALLOONS);
    List<String> expected = new ArrayList<>();
    List<Run> shown = new ArrayList<>();
    ScenarioRunner.Listener listener =
        new ScenarioRunner.Listener() {
          @Override
          public void finished(Observed observed, SystemTopology topology, LiveDaemon daemon) {
            expected.add(PlacementReport.format(observed, topology));
            String endpoint = daemon.endpoint().orElseThrow().toString();
            shown.add(show("--endpoint", endpoint));
            shown.add(show("--endpoint", endpoint, "--why", "pod1/pod1c1"));
            shown.add(show("--endpoint", endpoint, "--why", "nosuch"));
          }
        };
    ScenarioResult result =
        new ScenarioRunner(BuiltInPolicies.registry(), true, listener).run(Scenario.read(file));
    assertTrue(result.passed(), result.failure().orElse(""));
    Run run = shown.get(0);
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().startsWith("== node at http://127.0.0.1:"), run.out());
    assertTrue(run.out().contains("(policy balloons, version "), run.out());
    String tables = run.out().substring(run.out().indexOf('\n') + 1);
    assertEquals(expected.get(0), tables);
    assertTrue(tables.contains("lc[0]"), tables);

    Run why = shown.get(1);
    assertEquals(0, why.status(), why.err());
    List<String> lines = why.out().lines().toList();
    assertTrue(lines.get(0).startsWith("default/pod1/pod1c1 (running, cpus "), why.out());
    assertEquals(
        "balloon lc[0]: type lc (annotation balloon.balloons.cri-resource-manager.intel.com),"
            + " reused (same-pod)",
        lines.get(1));
    Run unknown = shown.get(2);
    assertEquals(1, unknown.status(), unknown.out());
    assertTrue(
        unknown.err().startsWith("show --why: no container or refusal nosuch (give "),
        unknown.err());
  }

  @Test
  void aDaemonThatDoesNotAnswerExitsWith1() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Run run = show("--endpoint", "http://127.0.0.1:" + port + "/");
    assertEquals(1, run.status(), run.out());
    assertTrue(
        run.err()
            .startsWith(
                "show: http://127.0.0.1:" + port + "/ui/node.json: cannot read the node model: "),
        run.err());
  }
}
