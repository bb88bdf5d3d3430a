package io.criresmgr.policy.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AllowedCpusTest {
  private static PolicyContext context(Map<String, String> available) {
    return new PolicyContext(Path.of("/"), CpuSet.range(0, 7), CpuSet.of(0), available, Map.of());
  }

  @Test
  void withoutAConstraintEveryOnlineCpuIsAllowed() {
    assertEquals(CpuSet.range(0, 7), AllowedCpus.from(context(Map.of())));
    assertEquals(CpuSet.range(0, 7), AllowedCpus.from(context(Map.of("memory", "1G"))));
  }

  @ParameterizedTest
  @CsvSource({
    "CPU, cpuset:1-3, 1-3",
    "cpu, cpuset:2, 2",
    "CPU, '0,2,4', '0,2,4'",
    "Cpu, 4-5, 4-5",
    "CPU, cpuset:6-9, 6-7"
  })
  void explicitListsAreAllowedWithinTheOnlineCpus(String key, String value, String expected) {
    assertEquals(CpuSet.parse(expected), AllowedCpus.from(context(Map.of(key, value))));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2", "750m", "cgroup:/kubepods", "/sys/fs/cgroup/x"})
  void otherFormsAreRejectedWithTheAcceptedOnes(String value) {
    PolicyException e =
        assertThrows(PolicyException.class, () -> AllowedCpus.from(context(Map.of("CPU", value))));
    assertEquals(
        "policy.AvailableResources.CPU: invalid value \""
            + value
            + "\": expected cpuset:<list> or a CPU list such as 0-3 or 0,2 (the template policy"
            + " does not accept quantities or cgroup paths; write cpuset:2 for CPU 2)",
        e.getMessage());
  }

  @Test
  void malformedAndEmptyListsAreRejected() {
    assertEquals(
        "policy.AvailableResources.CPU: invalid value \"cpuset:3-1\": invalid CPU list \"3-1\":"
            + " range 3-1 ends before it starts (expected a list such as 0-3,8); expected"
            + " cpuset:<list> or a CPU list such as 0-3 or 0,2 (the template policy does not"
            + " accept quantities or cgroup paths; write cpuset:2 for CPU 2)",
        error(Map.of("CPU", "cpuset:3-1")));
    assertEquals(
        "policy.AvailableResources.CPU: invalid value \"cpuset:\": the list is empty; expected"
            + " cpuset:<list> or a CPU list such as 0-3 or 0,2 (the template policy does not"
            + " accept quantities or cgroup paths; write cpuset:2 for CPU 2)",
        error(Map.of("CPU", "cpuset:")));
  }

  @Test
  void aConstraintWithoutOnlineCpusIsRejected() {
    assertEquals(
        "policy.AvailableResources.CPU: none of the CPUs 8-9 is online (online: 0-7)",
        error(Map.of("CPU", "cpuset:8-9")));
  }

  @Test
  void twoSpellingsOfTheKeyAreRejected() {
    assertEquals(
        "policy.AvailableResources.CPU: given twice (keys are case-insensitive)",
        error(Map.of("CPU", "cpuset:1", "cpu", "cpuset:2")));
  }

  private static String error(Map<String, String> available) {
    return assertThrows(PolicyException.class, () -> AllowedCpus.from(context(available)))
        .getMessage();
  }
}
