package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.topologyaware.Annotations.Found;
import io.criresmgr.policy.topologyaware.Annotations.Scope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AnnotationsTest {
  private static Pod pod(Map<String, String> annotations) {
    return Workloads.pod("default", QosClass.GUARANTEED, annotations);
  }

  @Test
  void keysInBothSpellings() {
    assertEquals(
        "cpu.preserve.cri-resource-manager.intel.com", Annotations.key(Annotations.CPU_PRESERVE));
    assertEquals(
        "cpu.preserve.resource-policy.nri.io", Annotations.nriKey(Annotations.CPU_PRESERVE));
    assertEquals(
        "cri-resource-manager.intel.com/cold-start",
        Annotations.deprecatedKey(Annotations.COLD_START));
    assertEquals(12, Annotations.NAMES.size());
  }

  @Test
  void effectiveLookupGoesContainerPodUnscopedAndCriBeforeNri() {
    String cri = "memory-type.cri-resource-manager.intel.com";
    String nri = "memory-type.resource-policy.nri.io";
    Map<String, String> all =
        Map.of(
            cri + "/container.c0",
            "a",
            nri + "/container.c0",
            "b",
            cri + "/pod",
            "c",
            nri + "/pod",
            "d",
            cri,
            "e",
            nri,
            "f");
    assertEquals(
        Optional.of(new Found(cri + "/container.c0", "a", Scope.CONTAINER)),
        Annotations.effective(pod(all), "c0", Annotations.MEMORY_TYPE));
    assertEquals(
        Optional.of(new Found(cri + "/pod", "c", Scope.POD)),
        Annotations.effective(pod(all), "c1", Annotations.MEMORY_TYPE));
    assertEquals(
        Optional.of(new Found(nri + "/container.c0", "b", Scope.CONTAINER)),
        Annotations.effective(
            pod(Map.of(nri + "/container.c0", "b", cri + "/pod", "c")),
            "c0",
            Annotations.MEMORY_TYPE));
    assertEquals(
        Optional.of(new Found(nri, "f", Scope.UNSCOPED)),
        Annotations.effective(pod(Map.of(nri, "f")), "c0", Annotations.MEMORY_TYPE));
    assertEquals(
        Optional.empty(),
        Annotations.effective(
            pod(Map.of(cri + "/container.c1", "a")), "c0", Annotations.MEMORY_TYPE));
  }

  @ParameterizedTest
  @CsvSource({
    "1, true",
    "t, true",
    "T, true",
    "true, true",
    "True, true",
    "TRUE, true",
    "0, false",
    "f, false",
    "F, false",
    "false, false",
    "False, false",
    "FALSE, false"
  })
  void booleansAsGoParsesThem(String value, boolean expected) {
    String key = Annotations.key(Annotations.HIDE_HYPERTHREADS);
    assertEquals(
        Optional.of(expected),
        Annotations.bool(pod(Map.of(key, value)), "c0", Annotations.HIDE_HYPERTHREADS));
  }

  @ParameterizedTest
  @CsvSource({"yes", "tRue", "' true'", "''"})
  void otherBooleansAreRejected(String value) {
    String key = Annotations.nriKey(Annotations.HIDE_HYPERTHREADS) + "/pod";
    Pod pod = pod(Map.of(key, value));
    assertEquals(
        "annotation hide-hyperthreads.resource-policy.nri.io/pod: invalid value \""
            + value
            + "\": expected true or false",
        assertThrows(
                PolicyException.class,
                () -> Annotations.bool(pod, "c0", Annotations.HIDE_HYPERTHREADS))
            .getMessage());
  }

  @Test
  void unknownKeysUnderOurDomains() {
    Pod pod =
        pod(
            Map.of(
                "prefer-isolated-cpu.cri-resource-manager.intel.com/pod", "true",
                "scheduling-class.resource-policy.nri.io", "x",
                "cri-resource-manager.intel.com/prefer-isolated", "true",
                "prefer-isolated-cpus.cri-resource-manager.intel.com/pod", "true",
                "cpu.preserve.resource-policy.nri.io/container.c0", "true",
                "cri-resource-manager.intel.com/affinity", "c0: [c1]",
                "rdtclass.cri-resource-manager.intel.com/pod", "gold",
                "cri-resource-manager.intel.com/memory-type", "dram",
                "io.kubernetes.pod.uid", "x",
                "example.com/cri-resource-manager.intel.com", "x"));
    assertEquals(
        List.of(
            "cri-resource-manager.intel.com/prefer-isolated",
            "prefer-isolated-cpu.cri-resource-manager.intel.com/pod",
            "scheduling-class.resource-policy.nri.io"),
        UnknownAnnotations.unknown(pod));
    UnknownAnnotations.report(pod); // logs once
    UnknownAnnotations.report(pod); // and not again
  }

  @Test
  void yamlValuesAreParsedWithinTheAnnotationLimits() throws Exception {
    assertEquals(true, Annotations.readYaml("c1: true").path("c1").booleanValue());
    assertEquals(
        "String value length (65537) at c1 exceeds the maximum allowed (65536) for annotation",
        assertThrows(
                JsonProcessingException.class,
                () -> Annotations.readYaml("c1: " + "x".repeat(65537)))
            .getOriginalMessage());
  }
}
