package io.criresmgr.fuzz;

import static io.criresmgr.fuzz.Refusals.valueOrRefusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResourcesAnnotation;
import io.criresmgr.cache.adjustment.AdjustmentException;
import io.criresmgr.cache.adjustment.AdjustmentParser;
import io.criresmgr.cache.affinity.Affinities;
import io.criresmgr.controllers.memoryqos.MemoryQosAnnotations;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.balloons.BalloonsPolicyProvider;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.policy.topologyaware.TopologyAwarePolicyProvider;
import io.criresmgr.proxy.core.cri.RequestedAnnotation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Every reader of pod annotations on any annotations: the webhook's resource annotation, the
 * affinity annotations, the annotations the topology-aware and balloons policies read when they
 * allocate, the memory-qos controller's annotations, and an external adjustment (JSON, read from
 * the first value). Each gives its value or refuses with its documented exception and a message
 * naming the annotation; the policies refuse with a PolicyException and never fail otherwise.
 */
class AnnotationsFuzzTest {
  private static final Policy TOPOLOGY_AWARE = create(new TopologyAwarePolicyProvider(), "{}");
  private static final Policy BALLOONS =
      create(
          new BalloonsPolicyProvider(),
          "{\"BalloonTypes\": [{\"Name\": \"work\", \"Namespaces\": [\"default\"]}]}");

  @FuzzTest(maxDuration = "20s")
  void annotationsAreReadOrRefusedNamingTheAnnotation(byte[] input) throws Exception {
    Map<String, String> annotations = FuzzedPods.annotations(input);
    Pod pod = FuzzedPods.pod(annotations);
    Container container = FuzzedPods.container(pod);
    valueOrRefusal(
        IllegalArgumentException.class,
        "annotation ",
        () -> PodResourcesAnnotation.fromAnnotations(annotations));
    valueOrRefusal(
        IllegalArgumentException.class, "annotation ", () -> Affinities.of(container, pod));
    valueOrRefusal(
        PolicyException.class,
        () -> TOPOLOGY_AWARE.allocate(container, FuzzedPods.cache(pod, container)));
    valueOrRefusal(
        PolicyException.class,
        () -> BALLOONS.allocate(container, FuzzedPods.cache(pod, container)));
    MemoryQosAnnotations.of(annotations, FuzzedPods.CONTAINER);
    String first = annotations.values().iterator().next();
    valueOrRefusal(AdjustmentException.class, () -> AdjustmentParser.parse("node-0", first));
    requestedResourcesRoundTrip(first);
  }

  /** What survives a cache loss: refused with a reason, or read back exactly as written. */
  private static void requestedResourcesRoundTrip(String value) throws Exception {
    LinuxResources read;
    try {
      read = RequestedAnnotation.parse(value);
    } catch (IllegalArgumentException e) {
      assertFalse(String.valueOf(e.getMessage()).isBlank(), "a refusal without a reason");
      return;
    }
    assertEquals(read, RequestedAnnotation.parse(RequestedAnnotation.format(read)));
  }

  private static Policy create(PolicyProvider<?> provider, String options) {
    try {
      Path root = Files.createTempDirectory("fuzz-sysfs");
      FakeSysfsWriter.write(TopologySpec.builtIn("c4pmem4"), root);
      PolicyContext context =
          new PolicyContext(
              root, CpuSet.range(0, 3), CpuSet.range(0, 7), Map.of(), Map.of("CPU", "750m"));
      return provider.parseAndCreate(context, new ObjectMapper().readTree(options));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
