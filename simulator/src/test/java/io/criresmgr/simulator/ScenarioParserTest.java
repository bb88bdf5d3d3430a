package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.QosClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioParserTest {
  private static final String FULL =
      """
      topology: n4c16
      isolcpus: "8,9"
      cgroups: {test-1: "1-4,11"}
      config: |
        policy: {Active: template}
      steps:
        - set: {CPU: 2, mem: 1G}
        - create: {contcount: 4, annotations: {a: b}}
        - create: {template: burstable, cpureq: 500m, cpulim: "", namespace: kube-system}
        - verify:
            pod0c0: {cpus: 1, nodes: [1], mems: {count: ">=1", excludes: [node3]}}
            pod1c0: absent
            disjoint: [[cpus, pod0c0, pod0c1+pod0c2]]
            same: [cpus, pod0c1, pod0c2]
            all: {mems: 1}
            any: [{pod0c0: {cpus: [cpu04]}}, {pod0c0: {cpus: [5]}}]
            timeout: 1s
        - delete: [pod0]
        - delete: all
        - expect-error: {create: {cpu: 100}, message: "not enough"}
        - restart: {config: {policy: {Active: none}}}
        - restart:
        - exit: {container: pod0c0, restart: true}
        - exit: pod0c1
        - wait: 1s
        - expect-log: "PMEM node #4"
        - expect-no-log: {pattern: upward}
        - reset-counters
        - random: {seed: 3, operations: 10, pods: {gu0: {cpu: 200m}}, max-cpu: 14050m}
      """;

  @Test
  void parsesEveryStep() {
    Scenario s = Scenario.parse("full.yaml", FULL);
    assertEquals("n4c16", s.topology());
    assertEquals(CpuSet.of(8, 9), s.isolcpus());
    assertEquals(Map.of("test-1", CpuSet.parse("1-4,11")), s.cgroups());
    assertEquals("policy: {Active: template}\n", s.config());
    List<String> kinds = s.steps().stream().map(Step::kind).toList();
    assertEquals(
        List.of(
            "set",
            "create",
            "create",
            "verify",
            "delete",
            "delete",
            "expect-error",
            "restart",
            "restart",
            "exit",
            "exit",
            "wait",
            "expect-log",
            "expect-no-log",
            "reset-counters",
            "random"),
        kinds);
    assertEquals(8, s.steps().get(1).line());
    Step.Check check = (Step.Check) s.steps().get(3);
    assertEquals(2, check.verify().relations().size());
    assertEquals(
        List.of(List.of("pod0c0"), List.of("pod0c1", "pod0c2")),
        check.verify().relations().get(0).operands());
    assertTrue(((Step.Restart) s.steps().get(7)).config().orElseThrow().contains("Active: none"));
    assertEquals(new Step.Exit(24, "pod0c1", 0, false), s.steps().get(10));
  }

  @Test
  void resolvesTemplatesWithDefaultsAndKubernetesDefaulting() {
    RunContextVars vars = new RunContextVars();
    PodSpec guaranteed = vars.resolve("{contcount: 2, cpu: 500m, mem: 1G}", "pod0");
    assertEquals(QosClass.GUARANTEED, guaranteed.qosClass());
    assertEquals(
        new PodSpec.Requirements(500, 500, 1_000_000_000, 1_000_000_000), guaranteed.resources());
    assertEquals(List.of("pod0c0", "pod0c1"), guaranteed.containerNames());
    PodSpec limitOnly = vars.resolve("{template: burstable, cpureq: '', memreq: ~}", "pod1");
    assertEquals(
        new PodSpec.Requirements(2000, 2000, 200_000_000, 200_000_000), limitOnly.resources());
    assertEquals(QosClass.GUARANTEED, limitOnly.qosClass());
    PodSpec burstable = vars.resolve("{template: burstable, icontcount: 2}", "pod2");
    assertEquals(QosClass.BURSTABLE, burstable.qosClass());
    assertEquals(List.of("pod2c0i", "pod2c1i"), burstable.initContainerNames());
    assertEquals(QosClass.BEST_EFFORT, vars.resolve("{template: besteffort}", "p").qosClass());
  }

  @Test
  void errorsNameFileLineAndField() {
    assertError(
        "steps:\n  - create: {cpu: lots}\n", "s.yaml:2: steps[0].create.cpu: invalid CPU quantity");
    assertError("steps:\n  - create: {cpus: 1}\n", "s.yaml:2: steps[0].create.cpus: unknown key");
    assertError(
        "topology: n4c16\nsteps:\n  - verify:\n      pod0c0: {cpus: [cpu1, core2]}\n",
        "s.yaml:4: steps[0].verify.pod0c0.cpus[1]: \"core2\" is not a cpus item");
    assertError(
        "steps:\n  - {create: {}, delete: all}\n", "s.yaml:2: steps[0]: a step has exactly");
    assertError(
        "steps:\n  - expect-log: \"a(\"\n", "s.yaml:2: steps[0].expect-log: invalid regular");
    assertError("steps: []\nsteps: []\n", "s.yaml:2: steps: duplicate key");
    assertError("topology: x\n", "s.yaml:1: steps: required");
    assertError(
        "steps:\n  - verify: {disjoint: [[cpu, a, b]]}\n",
        "s.yaml:2: steps[0].verify.disjoint[0][0]: unknown attribute");
    assertError(
        "steps:\n  - verify: {pod0c0: {cpus: \"~3\"}}\n",
        "s.yaml:2: steps[0].verify.pod0c0.cpus: invalid count \"~3\"");
    assertError("a: [\n", "s.yaml:1: not valid YAML");
  }

  private static void assertError(String yaml, String expected) {
    ScenarioException e =
        assertThrows(ScenarioException.class, () -> Scenario.parse("s.yaml", yaml));
    assertTrue(e.getMessage().startsWith(expected), () -> "message: " + e.getMessage());
  }

  /** Resolves create steps on top of the reference defaults. */
  private static final class RunContextVars {
    PodSpec resolve(String yaml, String name) {
      PodVars vars = PodVars.parse(LocatedYaml.read("t", yaml));
      return PodSpec.resolve(PodVars.DEFAULTS.then(vars), name);
    }
  }
}
