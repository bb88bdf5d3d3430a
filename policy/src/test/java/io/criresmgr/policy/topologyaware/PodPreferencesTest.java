package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.topologyaware.Preferences.Pref;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reference TestPodIsolationPreference and TestPodSharedCPUPreference. Where cri-resmgr logs an
 * unparsable value and falls back to the defaults, we fail (docs/policy/topology-aware.md, "Where
 * we differ from cri-resmgr, and why"); those cases are in {@link
 * #malformedValuesFailNamingTheAnnotation}.
 */
class PodPreferencesTest {
  private static final String ISOLATED = Annotations.key(Annotations.PREFER_ISOLATED_CPUS);
  private static final String SHARED = Annotations.key(Annotations.PREFER_SHARED_CPUS);
  private static final String OLD_ISOLATED =
      Annotations.deprecatedKey(Annotations.PREFER_ISOLATED_CPUS);
  private static final String OLD_SHARED =
      Annotations.deprecatedKey(Annotations.PREFER_SHARED_CPUS);
  private static final String REQUIRE = Annotations.key(Annotations.REQUIRE_ISOLATED_CPUS);
  private static final String NRI_ISOLATED = Annotations.nriKey(Annotations.PREFER_ISOLATED_CPUS);
  private static final String NRI_REQUIRE = Annotations.nriKey(Annotations.REQUIRE_ISOLATED_CPUS);

  private static Pod pod(Map<String, String> annotations) {
    return Workloads.pod("default", QosClass.GUARANTEED, annotations);
  }

  static Stream<Arguments> isolation() {
    return Stream.of(
        // name, annotations, container, expected (value, explicit, required)
        Arguments.of("return defaults", Map.of(), "c0", new Pref(true, false, false)),
        Arguments.of(
            "deprecated pod-wide value",
            Map.of(OLD_ISOLATED, "true"),
            "c0",
            new Pref(true, true, false)),
        Arguments.of(
            "deprecated pod-wide false",
            Map.of(OLD_ISOLATED, "false"),
            "c0",
            new Pref(false, true, false)),
        Arguments.of(
            "deprecated map, missing container",
            Map.of(OLD_ISOLATED, "key: true"),
            "c0",
            new Pref(true, false, false)),
        Arguments.of(
            "deprecated map, defined preference",
            Map.of(OLD_ISOLATED, "testcontainer: false"),
            "testcontainer",
            new Pref(false, true, false)),
        Arguments.of(
            "effective true",
            Map.of(ISOLATED + "/container.c0", "true"),
            "c0",
            new Pref(true, true, false)),
        Arguments.of(
            "effective false",
            Map.of(ISOLATED + "/container.c0", "false"),
            "c0",
            new Pref(false, true, false)),
        Arguments.of(
            "effective for another container",
            Map.of(ISOLATED + "/container.c0", "true"),
            "c1",
            new Pref(true, false, false)),
        Arguments.of(
            "effective wins over deprecated",
            Map.of(ISOLATED + "/pod", "false", OLD_ISOLATED, "true"),
            "c0",
            new Pref(false, true, false)),
        Arguments.of("nri spelling", Map.of(NRI_ISOLATED, "0"), "c0", new Pref(false, true, false)),
        Arguments.of(
            "cri spelling wins at the same scope",
            Map.of(NRI_ISOLATED + "/pod", "false", ISOLATED + "/pod", "true"),
            "c0",
            new Pref(true, true, false)),
        Arguments.of(
            "narrower nri scope wins over cri",
            Map.of(NRI_ISOLATED + "/container.c0", "false", ISOLATED + "/pod", "true"),
            "c0",
            new Pref(false, true, false)),
        Arguments.of("require", Map.of(REQUIRE + "/pod", "true"), "c0", new Pref(true, true, true)),
        Arguments.of(
            "require wins a tie",
            Map.of(NRI_REQUIRE, "true", ISOLATED, "false"),
            "c0",
            new Pref(true, true, true)),
        Arguments.of(
            "narrower prefer wins over require",
            Map.of(REQUIRE + "/pod", "true", ISOLATED + "/container.c0", "false"),
            "c0",
            new Pref(false, true, false)),
        Arguments.of(
            "narrower require wins over prefer",
            Map.of(REQUIRE + "/container.c0", "True", ISOLATED + "/pod", "false"),
            "c0",
            new Pref(true, true, true)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("isolation")
  void isolationPreference(
      String name, Map<String, String> annotations, String container, Pref expected) {
    assertEquals(
        expected, Preferences.isolated(pod(annotations), container, TopologyAwareOptions.DEFAULTS));
  }

  @Test
  void isolationDefaultComesFromTheOptions() {
    assertEquals(
        new Pref(false, false, false),
        Preferences.isolated(pod(Map.of()), "c0", Workloads.options(false, false, List.of())));
  }

  static Stream<Arguments> sharing() {
    return Stream.of(
        Arguments.of("return defaults", Map.of(), "c0", new Pref(false, false, false)),
        Arguments.of(
            "deprecated pod-wide value",
            Map.of(OLD_SHARED, "true"),
            "c0",
            new Pref(true, true, false)),
        Arguments.of(
            "deprecated map, missing container",
            Map.of(OLD_SHARED, "key: true"),
            "c0",
            new Pref(false, false, false)),
        Arguments.of(
            "deprecated map, defined preference",
            Map.of(OLD_SHARED, "testcontainer: false"),
            "testcontainer",
            new Pref(false, true, false)),
        Arguments.of(
            "effective true",
            Map.of(SHARED + "/container.c0", "true"),
            "c0",
            new Pref(true, true, false)),
        Arguments.of(
            "effective false",
            Map.of(SHARED + "/container.c0", "false"),
            "c0",
            new Pref(false, true, false)),
        Arguments.of(
            "effective for another container",
            Map.of(SHARED + "/container.c0", "true"),
            "c1",
            new Pref(false, false, false)),
        Arguments.of(
            "nri spelling",
            Map.of(Annotations.nriKey(Annotations.PREFER_SHARED_CPUS), "true"),
            "c0",
            new Pref(true, true, false)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sharing")
  void sharedPreference(
      String name, Map<String, String> annotations, String container, Pref expected) {
    assertEquals(
        expected, Preferences.shared(pod(annotations), container, TopologyAwareOptions.DEFAULTS));
  }

  @Test
  void sharedDefaultComesFromTheOptions() {
    assertEquals(
        new Pref(true, false, false),
        Preferences.shared(pod(Map.of()), "c0", Workloads.options(true, true, List.of())));
  }

  static Stream<Arguments> malformed() {
    String bool = "expected true or false";
    String oldBool = "expected true, false or a map of container names to true or false";
    return Stream.of(
        Arguments.of(OLD_ISOLATED, "UNPARSABLE", "c0", oldBool),
        Arguments.of(OLD_ISOLATED, "testcontainer: maybe", "testcontainer", oldBool),
        Arguments.of(OLD_ISOLATED, "[true]", "c0", oldBool),
        Arguments.of(OLD_ISOLATED, "a: [", "c0", oldBool),
        Arguments.of(ISOLATED + "/container.c0", "blah", "c0", bool),
        Arguments.of(OLD_SHARED, "UNPARSABLE", "c0", oldBool),
        Arguments.of(OLD_SHARED, "testcontainer: UNPARSABLE", "testcontainer", oldBool),
        Arguments.of(SHARED + "/container.c0", "blah", "c0", bool),
        Arguments.of(NRI_REQUIRE + "/pod", "yes please", "c0", bool));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void malformedValuesFailNamingTheAnnotation(
      String key, String value, String container, String expected) {
    Pod pod = pod(Map.of(key, value));
    String message =
        assertThrows(
                PolicyException.class,
                () -> {
                  Preferences.isolated(pod, container, TopologyAwareOptions.DEFAULTS);
                  Preferences.shared(pod, container, TopologyAwareOptions.DEFAULTS);
                })
            .getMessage();
    assertEquals("annotation " + key + ": invalid value \"" + value + "\": " + expected, message);
  }
}
