package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.QosClass;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Parsing of the {@code metrics} and {@code reconfigure} steps and of per-container CPUs. */
class PolicyStepsParserTest {
  private static final String STEPS =
      """
      topology: n4c16
      steps:
        - metrics:
            has: ['balloon="default\\[0\\]"', 'cpus_count="2"']
            lacks: 'balloon_type="flex"'
        - metrics: {lacks: [x], timeout: 2s}
        - reconfigure:
            config: |
              policy: {Active: balloons}
        - reconfigure: {config: {policy: {Active: none}}}
        - expect-error:
            reconfigure: {config: "policy: {Active: balloons}"}
            message: MinBalloons
      """;

  @Test
  void parsesMetricsSteps() {
    List<Step> steps = Scenario.parse("s.yaml", STEPS).steps();
    Step.Metrics first = (Step.Metrics) steps.get(0);
    assertEquals(3, first.line());
    assertEquals(List.of("balloon=\"default\\[0\\]\"", "cpus_count=\"2\""), texts(first.has()));
    assertEquals(List.of("balloon_type=\"flex\""), texts(first.lacks()));
    assertEquals(Duration.ZERO, first.timeout());
    Step.Metrics second = (Step.Metrics) steps.get(1);
    assertEquals(List.of(), second.has());
    assertEquals(Duration.ofSeconds(2), second.timeout());
  }

  @Test
  void parsesReconfigureSteps() {
    List<Step> steps = Scenario.parse("s.yaml", STEPS).steps();
    assertEquals(new Step.Reconfigure(7, "policy: {Active: balloons}\n"), steps.get(2));
    assertTrue(((Step.Reconfigure) steps.get(3)).config().contains("Active: none"));
    Step.ExpectError e = (Step.ExpectError) steps.get(4);
    assertEquals(new Step.Reconfigure(11, "policy: {Active: balloons}"), e.step());
    assertEquals("MinBalloons", e.message().pattern());
  }

  @Test
  void rejectsMalformedSteps() {
    assertError("steps:\n  - metrics: {}\n", "s.yaml:2: steps[0].metrics: expected has or lacks");
    assertError(
        "steps:\n  - metrics: {has: ['a{']}\n",
        "s.yaml:2: steps[0].metrics.has[0]: invalid regular expression");
    assertError("steps:\n  - metrics: {had: [a]}\n", "s.yaml:2: steps[0].metrics.had: unknown key");
    assertError(
        "steps:\n  - reconfigure: {}\n", "s.yaml:2: steps[0].reconfigure: config: required");
    assertError(
        "steps:\n  - expect-error: {reconfigure: {config: x}, restart: {}, message: m}\n",
        "s.yaml:2: steps[0].expect-error: expected exactly one of create, restart or reconfigure");
  }

  @Test
  void givesContainersTheirOwnCpus() {
    PodVars vars =
        PodVars.parse(LocatedYaml.read("t", "{cpureqlim: '6 500m-1', initcpureqlim: 100m-200m}"));
    PodSpec pod = PodSpec.resolve(PodVars.DEFAULTS.then(vars), "pod3");
    assertEquals(List.of("pod3c0", "pod3c1"), pod.containerNames());
    assertEquals(List.of("pod3c0i"), pod.initContainerNames());
    assertEquals(new PodSpec.Requirements(6000, 6000, 0, 0), pod.resources("pod3c0"));
    assertEquals(new PodSpec.Requirements(500, 1000, 0, 0), pod.resources("pod3c1"));
    assertEquals(new PodSpec.Requirements(100, 200, 0, 0), pod.resources("pod3c0i"));
    assertEquals(QosClass.BURSTABLE, pod.qosClass());
    assertError(
        "steps:\n  - create: {cpureqlim: '1 x'}\n",
        "s.yaml:2: steps[0].create.cpureqlim: invalid CPU quantity");
  }

  @Test
  void marksTheFirstInitContainersAsSidecars() {
    PodVars vars = PodVars.parse(LocatedYaml.read("t", "{icontcount: 3, sidecarcount: 2}"));
    PodSpec pod = PodSpec.resolve(PodVars.DEFAULTS.then(vars), "pod1");
    assertTrue(pod.isSidecar("pod1c0i"));
    assertTrue(pod.isSidecar("pod1c1i"));
    assertFalse(pod.isSidecar("pod1c2i"));
    assertFalse(pod.isSidecar("pod1c0"));
    PodVars tooMany = PodVars.parse(LocatedYaml.read("t", "{icontcount: 1, sidecarcount: 2}"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PodSpec.resolve(PodVars.DEFAULTS.then(tooMany), "pod1"));
    assertEquals("sidecarcount: 2 sidecars but only 1 init containers", e.getMessage());
  }

  @Test
  void checksMetricsLines() {
    String page =
        """
        # HELP balloons CPUs of a balloon
        balloons{balloon="default[0]",balloon_type="default"} 1
        balloons{balloon="flex[0]",balloon_type="flex"} 5
        """;
    MetricsCheck check = new MetricsCheck(() -> java.util.Optional.of(page));
    assertEquals(
        List.of(), check.failures(metrics(List.of("flex\\[0\\].* 5"), List.of("flex\\[1\\]"))));
    List<String> failures =
        check.failures(metrics(List.of("flex\\[1\\]", "HELP"), List.of("default")));
    assertEquals(3, failures.size());
    assertTrue(failures.get(0).startsWith("no line of /metrics matches /flex\\[1\\]/"));
    assertTrue(failures.get(1).startsWith("no line of /metrics matches /HELP/"), "comments");
    assertEquals(
        "a line of /metrics matches /default/: balloons{balloon=\"default[0]\","
            + "balloon_type=\"default\"} 1",
        failures.get(2));
    assertEquals(
        List.of("the daemon serves no /metrics (is instrumentation.PrometheusExport on?)"),
        new MetricsCheck(java.util.Optional::empty).failures(metrics(List.of("a"), List.of())));
  }

  private static Step.Metrics metrics(List<String> has, List<String> lacks) {
    return new Step.Metrics(
        1,
        has.stream().map(Pattern::compile).toList(),
        lacks.stream().map(Pattern::compile).toList(),
        Duration.ZERO);
  }

  private static List<String> texts(List<Pattern> patterns) {
    return patterns.stream().map(Pattern::pattern).toList();
  }

  private static void assertError(String yaml, String expected) {
    ScenarioException e =
        assertThrows(ScenarioException.class, () -> Scenario.parse("s.yaml", yaml));
    assertTrue(e.getMessage().startsWith(expected), () -> "message: " + e.getMessage());
  }
}
