package io.criresmgr.sampleconfigs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.CommandTree;
import io.criresmgr.simulator.Scenario;
import io.criresmgr.simulator.ScenarioResult;
import io.criresmgr.simulator.ScenarioRunner;
import io.criresmgr.simulator.SimulateCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every sample scenario in {@code scenarios/} runs through the daemon and passes. */
class SampleScenariosIT {
  private static final Path DIR = Path.of(System.getProperty("basedir", "."), "scenarios");

  @TestFactory
  Stream<DynamicTest> everySampleScenarioPasses() throws IOException {
    List<Path> files;
    try (Stream<Path> list = Files.list(DIR)) {
      files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    assertTrue(files.size() >= 2, () -> "too few scenarios in " + DIR.toAbsolutePath());
    return files.stream()
        .map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> run(f)));
  }

  /**
   * The daemon starts with {@code balloons-policy.cfg} on n4c16 and places kube-system, an
   * annotated latency-critical pod and a batch pod in the balloons the sample describes. Checks
   * that shared idle CPUs would not change: the reserved CPU stays kube-system's alone.
   */
  @Test
  void balloonsSampleRunsOnN4c16() throws IOException, InterruptedException {
    Path sample = DIR.getParent().resolve("balloons-policy.cfg");
    String steps =
        """
        topology: n4c16
        steps:
          - create: {template: besteffort, namespace: kube-system}
          - create:
              cpu: 1
              annotations: {balloon.balloons.cri-resource-manager.intel.com/pod: latency-critical}
          - create: {template: burstable, namespace: batch-a, cpureq: 500m, cpulim: 1}
          - create: {template: besteffort}
          - verify:
              pod0c0: {cpus: [0]}
              pod1c0: {cpus: {count: ">=2", excludes: [0]}}
              pod2c0: {cpus: {count: ">=1", excludes: [0]}}
              pod3c0: {cpus: {count: ">=1", excludes: [0]}}
          - expect-error:
              create:
                cpu: 5
                annotations: {balloon.balloons.cri-resource-manager.intel.com/pod: latency-critical}
              message: "no suitable balloon instance available"
        """;
    Scenario scenario =
        Scenario.parse("balloons-policy.cfg on n4c16", steps)
            .withConfig(Files.readString(sample, StandardCharsets.UTF_8));
    assertPassed(new ScenarioRunner().run(scenario));
  }

  /**
   * {@code cri-resmgr simulate} on the device sample prints each container's device hints: the
   * device, its CPUs and NUMA node as the fake host's sysfs gives them.
   */
  @Test
  void simulateShowsTheDeviceHintsOfTheDeviceSample() {
    Path file = DIR.resolve("topology-aware-n4c16-devices.yaml");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        CommandTree.run(
            new String[] {"simulate", "--pods", file.toString()},
            new PrintWriter(out),
            new PrintWriter(err),
            (o, s, early) -> {
              throw new AssertionError("the daemon command must not run");
            },
            List.of(new SimulateCommand()));
    String text = out.toString();
    assertEquals(0, status, err + text);
    String end = text.substring(text.indexOf("== placement at the end"));
    assertTrue(end.contains("POD/CONTAINER  DEVICE  "), end);
    assertTrue(end.contains("pod0/pod0c0    /dev/vfio/7                        12-15  3\n"), end);
    assertTrue(end.contains("pod1/pod1c0    /sys/bus/pci/devices/0000:3b:00.0  8-11   2\n"), end);
    assertTrue(end.contains("pod4/pod4c0    10     2-3   2      socket #1"), end);
  }

  private static void run(Path file) throws InterruptedException {
    assertPassed(new ScenarioRunner().run(Scenario.read(file)));
  }

  private static void assertPassed(ScenarioResult result) {
    assertTrue(
        result.passed(),
        () ->
            result.failure().orElse("")
                + "\nlast log lines:\n  "
                + String.join("\n  ", result.logTail()));
  }
}
