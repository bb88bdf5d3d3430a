package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodResourcesAnnotationTest {
  private static final String FORMAT =
      "expected {\"initContainers\":{...},\"containers\":{\"<name>\":"
          + "{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},\"limits\":{...}}}}";

  @Test
  void readsRequestsAndLimitsPerContainer() {
    String json =
        """
        {"initContainers":{"setup":{"requests":{"cpu":"100m","memory":"64Mi"}}},
         "containers":{
           "app":{"requests":{"cpu":"1500m","memory":"1Gi","intel.com/gpu":"1"},
                  "limits":{"cpu":"2","memory":"2Gi","hugepages-2Mi":"bogus"},
                  "claims":[{"name":"x"}]},
           "side":{},
           "num":{"requests":{"cpu":0.5,"memory":1000}}}}
        """;
    PodResources r =
        PodResourcesAnnotation.fromAnnotations(Map.of(PodResourcesAnnotation.KEY, json));
    assertEquals(new Resources(100, 0, 64 << 20, 0), r.initContainers().get("setup"));
    assertEquals(new Resources(1500, 2000, 1L << 30, 2L << 30), r.containers().get("app"));
    assertEquals(Resources.NONE, r.containers().get("side"));
    assertEquals(new Resources(500, 0, 1000, 0), r.containers().get("num"));
    assertTrue(r.isInit("setup"));
    assertFalse(r.isInit("app"));
    assertEquals(Optional.of(new Resources(100, 0, 64 << 20, 0)), r.find("setup"));
    assertEquals(Optional.empty(), r.find("nope"));
  }

  @Test
  void readsSidecarsAmongTheInitContainers() {
    String json =
        """
        {"initContainers":{"proxy":{"requests":{"cpu":"1"}},"setup":{}},
         "containers":{"app":{}},"sidecars":["proxy"]}
        """;
    PodResources r =
        PodResourcesAnnotation.fromAnnotations(Map.of(PodResourcesAnnotation.KEY, json));
    assertEquals(Set.of("proxy"), r.sidecars());
    assertTrue(r.isSidecar("proxy"));
    assertFalse(r.runsToCompletion("proxy"));
    assertTrue(r.runsToCompletion("setup"));
    assertFalse(r.runsToCompletion("app"));
    assertEquals(Optional.of(new Resources(1000, 0, 0, 0)), r.find("proxy"));
  }

  @Test
  void anAnnotationWithoutSidecarsHasNone() {
    String older = "{\"initContainers\":{\"setup\":{}},\"containers\":{}}";
    PodResources r =
        PodResourcesAnnotation.fromAnnotations(Map.of(PodResourcesAnnotation.LEGACY_KEY, older));
    assertEquals(Set.of(), r.sidecars());
    assertTrue(r.runsToCompletion("setup"));
  }

  @Test
  void noAnnotationIsNone() {
    assertEquals(PodResources.NONE, PodResourcesAnnotation.fromAnnotations(Map.of("a", "b")));
  }

  @Test
  void acceptsTheLegacyKeyAndPrefersOurs() {
    String legacy = "{\"containers\":{\"app\":{\"requests\":{\"cpu\":\"1\"}}}}";
    String ours = "{\"containers\":{\"app\":{\"requests\":{\"cpu\":\"2\"}}}}";
    assertEquals(
        1000,
        PodResourcesAnnotation.fromAnnotations(Map.of(PodResourcesAnnotation.LEGACY_KEY, legacy))
            .containers()
            .get("app")
            .cpuRequestMilli());
    assertEquals(
        2000,
        PodResourcesAnnotation.fromAnnotations(
                Map.of(PodResourcesAnnotation.LEGACY_KEY, legacy, PodResourcesAnnotation.KEY, ours))
            .containers()
            .get("app")
            .cpuRequestMilli());
  }

  @Test
  void nullSectionsAreEmpty() {
    PodResources r =
        PodResourcesAnnotation.fromAnnotations(
            Map.of(
                PodResourcesAnnotation.KEY,
                "{\"initContainers\":null,\"containers\":{\"a\":{\"limits\":null}},\"x\":1}"));
    assertEquals(new PodResources(Map.of(), Map.of("a", Resources.NONE)), r);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''                | the value is empty; " + FORMAT,
        "[]                | the value must be a JSON object, not []; " + FORMAT,
        "{\"containers\":[]} | containers must be a JSON object, not []; " + FORMAT,
        "{\"containers\":{\"a\":1}} | containers.a must be a JSON object, not 1; " + FORMAT,
        "{\"containers\":{\"a\":{\"limits\":\"x\"}}} | containers.a.limits must be a JSON"
            + " object, not \"x\"; "
            + FORMAT,
        "{\"containers\":{\"a\":{\"requests\":{\"cpu\":true}}}} | containers.a.requests.cpu:"
            + " expected a quantity such as \"500m\" or \"1Gi\", got true",
        "{\"initContainers\":{\"i\":{\"requests\":{\"memory\":\"1GB\"}}}} |"
            + " initContainers.i.requests.memory: invalid memory quantity \"1GB\": unknown suffix"
            + " \"GB\"; expected bytes such as 128974848, 129e6, 129M, 123Mi or 1.5Gi (suffixes k"
            + " M G T P E, Ki Mi Gi Ti Pi Ei)",
        "{\"initContainers\":{\"i\":{}},\"sidecars\":\"i\"} | sidecars must be a list of init"
            + " container names such as [\"proxy\"], not \"i\"",
        "{\"initContainers\":{\"i\":{}},\"containers\":{\"a\":{}},\"sidecars\":[\"i\",\"a\"]} |"
            + " sidecars[1]: \"a\" is not one of the initContainers [i]",
        "{\"sidecars\":[1]} | sidecars[0]: 1 is not one of the initContainers []",
        "{\"containers\":{\"a\":{\"limits\":{\"cpu\":\"-1\"}}}} | containers.a.limits.cpu:"
            + " invalid CPU quantity \"-1\": negative; expected cores such as 2 or 0.5, or"
            + " milli-cores such as 500m",
      })
  void rejectsMalformedValuesNamingTheKeyAndTheProblem(String value, String problem) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PodResourcesAnnotation.fromAnnotations(Map.of(PodResourcesAnnotation.KEY, value)));
    assertEquals("annotation " + PodResourcesAnnotation.KEY + ": " + problem, e.getMessage());
  }

  @Test
  void rejectsInvalidJsonNamingTheLegacyKey() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PodResourcesAnnotation.fromAnnotations(
                    Map.of(PodResourcesAnnotation.LEGACY_KEY, "{\"containers\":")));
    assertTrue(
        e.getMessage().startsWith("annotation intel.com/resources: not valid JSON ("),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("); " + FORMAT), e.getMessage());
  }

  @Test
  void rejectsTrailingGarbage() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PodResourcesAnnotation.fromAnnotations(
                    Map.of(PodResourcesAnnotation.KEY, "{} {}")));
    assertTrue(e.getMessage().contains("not valid JSON"), e.getMessage());
  }

  @Test
  void rejectsValuesOverTheAnnotationLimits() {
    String big =
        "{\"containers\":{\"c\":{\"requests\":{\"cpu\":\"" + "1".repeat(300_000) + "\"}}}}";
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PodResourcesAnnotation.fromAnnotations(Map.of(PodResourcesAnnotation.KEY, big)));
    assertTrue(e.getMessage().contains("exceeds the maximum allowed"), e.getMessage());
  }
}
