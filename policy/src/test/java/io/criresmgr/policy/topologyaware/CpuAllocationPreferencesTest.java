package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.SharedCpus;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Reference TestCpuAllocationPreferences, then the nri-plugins additions. */
class CpuAllocationPreferencesTest {
  private static final String ISOLATED = Annotations.key(Annotations.PREFER_ISOLATED_CPUS);
  private static final String SHARED = Annotations.key(Annotations.PREFER_SHARED_CPUS);
  private static final String RESERVED = Annotations.key(Annotations.PREFER_RESERVED_CPUS);
  private static final SharedCpus NO = SharedCpus.NONE;

  /** One row of the reference table. */
  record Case(
      String namespace,
      QosClass qos,
      long requestMilli,
      Map<String, String> annotations,
      boolean preferIsolated,
      SharedCpus preferShared,
      List<String> reservedNamespaces) {
    Case isolated() {
      return new Case(
          namespace, qos, requestMilli, annotations, true, preferShared, reservedNamespaces);
    }

    /** cri-resmgr's {@code PreferSharedCPUs: true}, ours {@code fractional}. */
    Case shared() {
      return sharing(SharedCpus.FRACTIONAL);
    }

    /** {@code PreferSharedCPUs: true} (nri-plugins). */
    Case sharedAll() {
      return sharing(SharedCpus.ALL);
    }

    private Case sharing(SharedCpus option) {
      return new Case(
          namespace, qos, requestMilli, annotations, preferIsolated, option, reservedNamespaces);
    }

    Case annotated(String key, String value) {
      Map<String, String> more = new java.util.HashMap<>(annotations);
      more.put(key + "/container.testcontainer", value);
      return new Case(
          namespace, qos, requestMilli, more, preferIsolated, preferShared, reservedNamespaces);
    }

    Case reserving(String... globs) {
      return new Case(
          namespace, qos, requestMilli, annotations, preferIsolated, preferShared, List.of(globs));
    }

    CpuRequest derive() {
      Pod pod = Workloads.pod(namespace, qos, annotations);
      Container c = Workloads.container(pod, "testcontainer", new Resources(requestMilli, 0, 0, 0));
      return Preferences.cpu(
          c, pod, Workloads.options(preferIsolated, preferShared, reservedNamespaces));
    }
  }

  private static Case guaranteed(long milli) {
    return new Case("default", QosClass.GUARANTEED, milli, Map.of(), false, NO, List.of());
  }

  private static Case burstable(String namespace, long milli) {
    return new Case(namespace, QosClass.BURSTABLE, milli, Map.of(), false, NO, List.of());
  }

  // expected: "(full, fraction, isolate, kind)" as the reference prints it
  private static Arguments row(String name, Case c, String expected) {
    return Arguments.of(name, c, expected);
  }

  static Stream<Arguments> table() {
    return Stream.of(
        row(
            "no resource requirements",
            new Case("default", QosClass.BEST_EFFORT, 0, Map.of(), false, NO, List.of()),
            "(0, 0, false, NORMAL)"),
        row("return defaults", burstable("default", 1000), "(0, 1000, false, NORMAL)"),
        row(
            "request's value for system container",
            burstable("kube-system", 2000),
            "(0, 2000, false, RESERVED)"),
        row(
            "request's value for burstable QoS",
            burstable("default", 2000),
            "(0, 2000, false, NORMAL)"),
        row("guaranteed sub-core", guaranteed(750), "(0, 750, false, NORMAL)"),
        row(
            "guaranteed sub-core, prefer isolated",
            guaranteed(750).isolated(),
            "(0, 750, false, NORMAL)"),
        row(
            "guaranteed sub-core, prefer shared",
            guaranteed(750).shared(),
            "(0, 750, false, NORMAL)"),
        row(
            "guaranteed sub-core, prefer isolated & shared",
            guaranteed(750).isolated().shared(),
            "(0, 750, false, NORMAL)"),
        row(
            "single full core, prefer isolated",
            guaranteed(1000).isolated(),
            "(1, 0, true, NORMAL)"),
        row("single full core, prefer no isolated", guaranteed(1000), "(1, 0, false, NORMAL)"),
        row("single full core, prefer shared", guaranteed(1000).shared(), "(1, 0, false, NORMAL)"),
        row(
            "single full core, prefer isolated & shared",
            guaranteed(1000).isolated().shared(),
            "(1, 0, true, NORMAL)"),
        row(
            "single full core, annotated shared",
            guaranteed(1000).isolated().shared().annotated(SHARED, "true"),
            "(0, 1000, false, NORMAL)"),
        row(
            "single full core, annotated no isolated",
            guaranteed(1000).isolated().shared().annotated(ISOLATED, "false"),
            "(1, 0, false, NORMAL)"),
        row("potential mixed", guaranteed(1500), "(1, 500, false, NORMAL)"),
        row(
            "potential mixed, prefer isolated",
            guaranteed(1500).isolated(),
            "(1, 500, true, NORMAL)"),
        row(
            "potential mixed, prefer shared",
            guaranteed(1500).shared(),
            "(0, 1500, false, NORMAL)"),
        row(
            "potential mixed, prefer isolated & shared",
            guaranteed(1500).isolated().shared(),
            "(0, 1500, false, NORMAL)"),
        row("multi-core full", guaranteed(2000), "(2, 0, false, NORMAL)"),
        row(
            "multi-core full, prefer isolated",
            guaranteed(2000).isolated(),
            "(2, 0, false, NORMAL)"),
        row("multi-core full, prefer shared", guaranteed(2000).shared(), "(2, 0, false, NORMAL)"),
        row(
            "multi-core full, prefer isolated & shared",
            guaranteed(2000).isolated().shared(),
            "(2, 0, false, NORMAL)"),
        row(
            "multi-core full, annotate isolated",
            guaranteed(2000).annotated(ISOLATED, "true"),
            "(2, 0, true, NORMAL)"),
        row(
            "multi-core full, annotate shared",
            guaranteed(2000).annotated(SHARED, "true"),
            "(0, 2000, false, NORMAL)"),
        row(
            "multi-core full, annotate isolated & shared",
            guaranteed(2000).annotated(ISOLATED, "true").annotated(SHARED, "true"),
            "(0, 2000, false, NORMAL)"),
        row("multi-core mixed", guaranteed(2500), "(0, 2500, false, NORMAL)"),
        row(
            "multi-core mixed, prefer isolated",
            guaranteed(2500).isolated(),
            "(0, 2500, false, NORMAL)"),
        row(
            "multi-core mixed, prefer shared",
            guaranteed(2500).shared(),
            "(0, 2500, false, NORMAL)"),
        row(
            "multi-core mixed, prefer isolated & shared",
            guaranteed(2500).isolated().shared(),
            "(0, 2500, false, NORMAL)"),
        row(
            "multi-core mixed, annotate isolated",
            guaranteed(2500).annotated(ISOLATED, "true"),
            "(0, 2500, false, NORMAL)"),
        row(
            "multi-core mixed, annotate shared",
            guaranteed(2500).annotated(SHARED, "true"),
            "(0, 2500, false, NORMAL)"),
        row(
            "multi-core mixed, annotate isolated & shared",
            guaranteed(2500).annotated(ISOLATED, "true").annotated(SHARED, "true"),
            "(0, 2500, false, NORMAL)"),
        row(
            "multi-core mixed, annotate no shared",
            guaranteed(2500).annotated(SHARED, "false"),
            "(2, 500, false, NORMAL)"),
        row(
            "multi-core mixed, annotate isolated, no shared",
            guaranteed(2500).annotated(ISOLATED, "true").annotated(SHARED, "false"),
            "(2, 500, true, NORMAL)"),
        row(
            "single full core, all shared",
            guaranteed(1000).sharedAll(),
            "(0, 1000, false, NORMAL)"),
        row(
            "single full core, prefer isolated & all shared",
            guaranteed(1000).isolated().sharedAll(),
            "(0, 1000, false, NORMAL)"),
        row(
            "single full core, all shared, annotated no shared",
            guaranteed(1000).isolated().sharedAll().annotated(SHARED, "false"),
            "(1, 0, true, NORMAL)"),
        row(
            "single full core, all shared, annotated isolated",
            guaranteed(1000).sharedAll().annotated(ISOLATED, "true"),
            "(1, 0, true, NORMAL)"),
        row(
            "single full core, all shared, annotated no isolated",
            guaranteed(1000).sharedAll().annotated(ISOLATED, "false"),
            "(0, 1000, false, NORMAL)"),
        row(
            "potential mixed, all shared",
            guaranteed(1500).isolated().sharedAll(),
            "(0, 1500, false, NORMAL)"),
        row(
            "potential mixed, all shared, annotated isolated",
            guaranteed(1500).sharedAll().annotated(ISOLATED, "true"),
            "(1, 500, true, NORMAL)"),
        row(
            "potential mixed, prefer isolated & shared, annotated isolated",
            guaranteed(1500).shared().annotated(ISOLATED, "true"),
            "(0, 1500, false, NORMAL)"),
        row(
            "multi-core full, all shared",
            guaranteed(2000).sharedAll(),
            "(0, 2000, false, NORMAL)"),
        row(
            "multi-core full, all shared, annotated no shared",
            guaranteed(2000).sharedAll().annotated(SHARED, "false"),
            "(2, 0, false, NORMAL)"),
        row(
            "multi-core full, all shared, annotated isolated",
            guaranteed(2000).sharedAll().annotated(ISOLATED, "true"),
            "(2, 0, true, NORMAL)"),
        row(
            "multi-core full, all shared, annotated isolated & shared",
            guaranteed(2000).sharedAll().annotated(ISOLATED, "true").annotated(SHARED, "true"),
            "(0, 2000, false, NORMAL)"),
        row(
            "multi-core mixed, all shared",
            guaranteed(2500).sharedAll(),
            "(0, 2500, false, NORMAL)"),
        row(
            "multi-core mixed, all shared, annotated no shared",
            guaranteed(2500).sharedAll().annotated(SHARED, "false"),
            "(2, 500, false, NORMAL)"),
        row(
            "reserved pool namespace",
            burstable("foobar", 2000).reserving("foobar"),
            "(0, 2000, false, RESERVED)"),
        row(
            "reserved pool namespace glob 1",
            burstable("foobar2", 2000).reserving("foobar*"),
            "(0, 2000, false, RESERVED)"),
        row(
            "reserved pool namespace glob 2",
            burstable("foobar-testing", 2000).reserving("barfoo", "foobar*"),
            "(0, 2000, false, RESERVED)"),
        row(
            "reserved pool namespace glob 3",
            burstable("testing", 2000).reserving("barfoo", "foobar?"),
            "(0, 2000, false, NORMAL)"),
        row(
            "reserved pool namespace glob 4",
            burstable("1foobar2", 2000).reserving("barfoo", "foobar?"),
            "(0, 2000, false, NORMAL)"),
        row(
            "reserved pool namespace glob 5",
            burstable("foobar12", 2000).reserving("barfoo", "foobar?", "testing"),
            "(0, 2000, false, NORMAL)"),
        row(
            "reserved cpu annotation for another container",
            new Case(
                "default",
                QosClass.BURSTABLE,
                0,
                Map.of(RESERVED + "/container.special", "false"),
                false,
                NO,
                List.of()),
            "(0, 0, false, NORMAL)"),
        row(
            "reserved cpu annotation for the pod",
            new Case(
                "default",
                QosClass.BURSTABLE,
                0,
                Map.of(RESERVED + "/pod", "true"),
                false,
                NO,
                List.of()),
            "(0, 0, false, RESERVED)"),
        row(
            "explicit false opts out of a reserved namespace",
            burstable("kube-system", 500).annotated(RESERVED, "false"),
            "(0, 500, false, NORMAL)"),
        row(
            "reserved annotation on a guaranteed container",
            guaranteed(2000).annotated(RESERVED, "true"),
            "(0, 2000, false, RESERVED)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void cpuAllocationPreferences(String name, Case c, String expected) {
    CpuRequest got = c.derive();
    assertEquals(
        expected,
        "("
            + got.full()
            + ", "
            + got.fractionMilli()
            + ", "
            + got.isolate()
            + ", "
            + got.kind()
            + ")");
  }

  private static CpuRequest derive(Pod pod, Resources resources, TopologyAwareOptions options) {
    return Preferences.cpu(Workloads.container(pod, "c0", resources), pod, options);
  }

  private static Pod pod(QosClass qos, Map<String, String> annotations) {
    return Workloads.pod("default", qos, annotations);
  }

  @Test
  void limits() {
    TopologyAwareOptions o = TopologyAwareOptions.DEFAULTS;
    assertEquals(
        3000,
        derive(pod(QosClass.BURSTABLE, Map.of()), new Resources(500, 3000, 0, 0), o).limitMilli());
    assertEquals(
        CpuRequest.UNLIMITED,
        derive(pod(QosClass.BURSTABLE, Map.of()), new Resources(500, 0, 0, 0), o).limitMilli(),
        "unlimited");
    assertEquals(
        2500,
        derive(pod(QosClass.GUARANTEED, Map.of()), new Resources(2500, 2500, 0, 0), o)
            .limitMilli());
    assertEquals(0, derive(pod(QosClass.BEST_EFFORT, Map.of()), Resources.NONE, o).limitMilli());
  }

  @Test
  void cpuPreserveLeavesTheCpusetAlone() {
    Pod pod =
        pod(QosClass.GUARANTEED, Map.of(Annotations.nriKey(Annotations.CPU_PRESERVE), "true"));
    assertEquals(
        new CpuRequest(CpuKind.PRESERVE, 0, 2000, false, false, CpuPriority.NONE, false, 2000),
        derive(pod, new Resources(2000, 2000, 0, 0), TopologyAwareOptions.DEFAULTS));
  }

  @Test
  void requireIsolatedCpusIsAStrictIsolatedPreference() {
    Pod pod =
        pod(
            QosClass.GUARANTEED,
            Map.of(Annotations.nriKey(Annotations.REQUIRE_ISOLATED_CPUS) + "/pod", "true"));
    assertEquals(
        new CpuRequest(CpuKind.NORMAL, 2, 0, true, true, CpuPriority.NONE, false, 2000),
        derive(pod, new Resources(2000, 2000, 0, 0), TopologyAwareOptions.DEFAULTS));
    // Not required where nothing exclusive is asked for.
    assertEquals(
        new CpuRequest(CpuKind.NORMAL, 0, 500, false, false, CpuPriority.NONE, false, 500),
        derive(pod, new Resources(500, 500, 0, 0), TopologyAwareOptions.DEFAULTS));
  }

  @Test
  void requireIsolatedCpusOptsOutOfPreferSharedCpus() {
    Pod pod =
        pod(
            QosClass.GUARANTEED,
            Map.of(Annotations.nriKey(Annotations.REQUIRE_ISOLATED_CPUS) + "/pod", "true"));
    TopologyAwareOptions allShared = Workloads.options(true, SharedCpus.ALL, List.of());
    assertEquals(
        new CpuRequest(CpuKind.NORMAL, 2, 0, true, true, CpuPriority.NONE, false, 2000),
        derive(pod, new Resources(2000, 2000, 0, 0), allShared));
  }

  @Test
  void priorityAndHyperthreads() {
    String prio = Annotations.key(Annotations.PREFER_CPU_PRIORITY);
    String hide = Annotations.nriKey(Annotations.HIDE_HYPERTHREADS);
    TopologyAwareOptions low =
        TopologyAwareOptions.builder()
            .reservedPoolNamespaces(List.of())
            .defaultCpuPriority(CpuPriority.LOW)
            .build();
    Resources two = new Resources(2000, 2000, 0, 0);
    assertEquals(
        new CpuRequest(CpuKind.NORMAL, 2, 0, false, false, CpuPriority.HIGH, true, 2000),
        derive(pod(QosClass.GUARANTEED, Map.of(prio, "high", hide, "true")), two, low));
    assertEquals(CpuPriority.LOW, derive(pod(QosClass.GUARANTEED, Map.of()), two, low).priority());
    assertEquals(
        CpuPriority.LOW,
        derive(pod(QosClass.GUARANTEED, Map.of(prio + "/pod", "default")), two, low).priority());
    assertEquals(
        CpuPriority.NONE,
        derive(pod(QosClass.GUARANTEED, Map.of(prio, "None")), two, low).priority());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "prefer-cpu-priority.cri-resource-manager.intel.com/container.c0 | fast | expected high,"
            + " normal, low, none or default",
        "hide-hyperthreads.cri-resource-manager.intel.com | sometimes | expected true or false",
        "cpu.preserve.resource-policy.nri.io/pod | please | expected true or false",
        "prefer-reserved-cpus.cri-resource-manager.intel.com | no! | expected true or false",
        "require-isolated-cpus.resource-policy.nri.io | 2 | expected true or false"
      })
  void malformedAnnotationsFailEvenWhereTheyWouldNotMatter(
      String key, String value, String expected) {
    Pod pod = pod(QosClass.BEST_EFFORT, Map.of(key, value));
    String message =
        assertThrows(
                PolicyException.class,
                () -> derive(pod, Resources.NONE, TopologyAwareOptions.DEFAULTS))
            .getMessage();
    assertEquals("annotation " + key + ": invalid value \"" + value + "\": " + expected, message);
  }
}
