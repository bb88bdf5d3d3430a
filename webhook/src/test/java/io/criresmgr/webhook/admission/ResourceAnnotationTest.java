package io.criresmgr.webhook.admission;

import static io.criresmgr.webhook.admission.Pods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.PodResourcesAnnotation;
import io.criresmgr.cache.Resources;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResourceAnnotationTest {
  @Test
  void copiesEveryResourceOfEveryContainerSorted() {
    assertEquals(Pods.POD_ANNOTATION, ResourceAnnotation.valueOf(json(Pods.POD)));
  }

  @Test
  void theDaemonsCacheReadsBackTheRequestsAndLimits() {
    String value = ResourceAnnotation.valueOf(json(Pods.POD));
    PodResources parsed =
        PodResourcesAnnotation.fromAnnotations(Map.of(PodResourcesAnnotation.KEY, value));
    assertEquals(
        new PodResources(
            Map.of("setup", new Resources(100, 200, 64L << 20, 128L << 20)),
            Map.of(
                "app", new Resources(1500, 2000, 1L << 30, 2L << 30), "sidecar", Resources.NONE)),
        parsed);
    assertEquals(PodResourcesAnnotation.KEY, ResourceAnnotation.KEY);
  }

  @Test
  void listsTheNativeSidecarInitContainers() {
    String pod =
        """
        {"spec":{"initContainers":[
           {"name":"setup"},
           {"name":"proxy","restartPolicy":"Always","resources":{"requests":{"cpu":"2"}}},
           {"name":"logs","restartPolicy":"Always"},
           {"name":"other","restartPolicy":"OnFailure"}],
         "containers":[{"name":"app","restartPolicy":"Always"}]}}
        """;
    String value = ResourceAnnotation.valueOf(json(pod));
    assertEquals(
        "{\"initContainers\":{\"logs\":{},\"other\":{},\"proxy\":{\"requests\":{\"cpu\":\"2\"}},"
            + "\"setup\":{}},\"containers\":{\"app\":{}},\"sidecars\":[\"logs\",\"proxy\"]}",
        value);
    PodResources parsed =
        PodResourcesAnnotation.fromAnnotations(Map.of(PodResourcesAnnotation.KEY, value));
    assertEquals(Set.of("logs", "proxy"), parsed.sidecars());
    assertEquals(new Resources(2000, 0, 0, 0), parsed.initContainers().get("proxy"));
  }

  @Test
  void aPodWithoutContainerListsHasEmptySections() {
    assertEquals(
        "{\"initContainers\":{},\"containers\":{}}",
        ResourceAnnotation.valueOf(json("{\"spec\":{\"containers\":null}}")));
  }

  @Test
  void emptyAmountsAreLeftOut() {
    String pod =
        "{\"spec\":{\"containers\":[{\"name\":\"a\",\"resources\":{\"requests\":{},"
            + "\"limits\":{\"memory\":\"1G\"},\"claims\":[{\"name\":\"gpu\"}]}}]}}";
    assertEquals(
        "{\"initContainers\":{},\"containers\":{\"a\":{\"limits\":{\"memory\":\"1G\"}}}}",
        ResourceAnnotation.valueOf(json(pod)));
  }

  @Test
  void numericQuantitiesBecomeExactStrings() {
    String pod =
        "{\"spec\":{\"containers\":[{\"name\":\"a\",\"resources\":"
            + "{\"requests\":{\"cpu\":0.1,\"memory\":1000}}}]}}";
    assertEquals(
        "{\"initContainers\":{},\"containers\":{\"a\":{\"requests\":"
            + "{\"cpu\":\"0.1\",\"memory\":\"1000\"}}}}",
        ResourceAnnotation.valueOf(json(pod)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "[]                                                   | the pod must be a JSON object, not ARRAY",
        "{}                                                   | spec is missing",
        "{`spec`:{`containers`:`app`}}                        | spec.containers must be a list, not STRING",
        "{`spec`:{`containers`:[{}]}}                         | spec.containers[0].name is missing",
        "{`spec`:{`initContainers`:[{`name`:``}]}}            | spec.initContainers[0].name must be a non-empty string, not \"\"",
        "{`spec`:{`containers`:[{`name`:`a`,`resources`:[]}]}} | spec.containers[0].resources must be a JSON object, not ARRAY",
        "{`spec`:{`containers`:[{`name`:`a`,`resources`:{`limits`:{`cpu`:{}}}}]}} | spec.containers[0].resources.limits.cpu: expected a quantity such as \"500m\", got {}",
        "{`spec`:{`containers`:[{`name`:`a`},{`name`:`a`}]}}  | spec.containers: duplicate container name \"a\"",
        "{`spec`:{`initContainers`:[{`name`:`a`,`restartPolicy`:1}]}} | spec.initContainers[0].restartPolicy must be a non-empty string, not 1",
        // Found by AdmissionReviewFuzzTest: the daemon refuses these, so the pod could not start.
        "{`spec`:{`containers`:[{`name`:`a`,`resources`:{`requests`:{`memory`:`1Gi/`}}}]}} | spec.containers[0].resources.requests.memory: \"1Gi/\" is not a non-negative memory quantity the node reads",
        "{`spec`:{`containers`:[{`name`:`a`,`resources`:{`limits`:{`cpu`:`-1`}}}]}} | spec.containers[0].resources.limits.cpu: \"-1\" is not a non-negative cpu quantity the node reads",
        "{`spec`:{`containers`:[{`name`:`a`,`resources`:{`limits`:{`cpu`:`1E`}}}]}} | spec.containers[0].resources.limits.cpu: \"1E\" is not a non-negative cpu quantity the node reads",
      })
  void malformedPodsAreRejectedNamingTheField(String pod, String message) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ResourceAnnotation.valueOf(json(pod.replace('`', '"'))));
    assertEquals(message, e.getMessage());
  }
}
