package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.PolicyMetrics.Gauge;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The introspection JSON and the {@code balloons} gauge, with the labels the e2e tests match. */
class BalloonsViewTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  private static final SystemTopology N4C32 = TopologySpec.builtIn("n4c32").topology();
  private static final String NAME = "balloons";
  private static final String ANNOTATION = "balloon.balloons.cri-resource-manager.intel.com";

  /** {@code balloons-metrics.cfg} of cri-resmgr's balloons e2e test02 (n4c16). */
  private static final String METRICS_CFG =
      """
      BalloonTypes:
        - {Name: full-core, MinCPUs: 2, MaxCPUs: 2, CPUClass: normal}
        - {Name: fast-dualcore, MinCPUs: 4, MaxCPUs: 4, CPUClass: turbo, PreferNewBalloons: true}
        - {Name: flex, MaxCPUs: 8, CPUClass: slow}
      """;

  /** cri-resmgr's balloons e2e test02 step 2, as the e2e test greps it. */
  private static final String TEST02_LINE =
      "balloons\\{balloon=\"full-core\\[0\\]\",balloon_type=\"full-core\","
          + "containers=\"pod0:pod0c0,pod0:pod0c1\",cpu_class=\"normal\",cpus=\".*\","
          + "cpus_allowed=\".*\",cpus_allowed_count=\"2\",cpus_count=\"2\",cpus_max=\"2\","
          + "cpus_min=\"2\",dies=\"p[01]d0\",dies_count=\"1\",mems=\"0\","
          + "numas=\"p[01]d0n[0-3]\",numas_count=\"1\",packages=\"p[01]\",packages_count=\"1\","
          + "sharedidlecpus=\"\",sharedidlecpus_count=\"0\",tot_req_millicpu=\"(199|200)\"\\} 2";

  private final BalloonsNode fixture = new BalloonsNode();
  private final FakeNode node = fixture.node;

  /** cri-resmgr's balloons e2e test02 up to step 2: pod0 with two 100m containers in full-core. */
  private List<Balloon> test02State(BalloonsPolicy p) {
    annotatedPod("pod0", "full-core");
    for (String c : List.of("pod0c0", "pod0c1")) {
      node.apply(p.allocate(node.create("pod0", c, FakeNode.cpu(100, 100)), node.cache()));
    }
    return BalloonState.read(node.cache().policyData(NAME).orElseThrow());
  }

  private void annotatedPod(String name, String type) {
    fixture.pod("default", name, Map.of(ANNOTATION, type));
  }

  /** {@code ReservedResources.CPU: 1} as the provider resolves it. */
  private static CpuSet reservedOne(SystemTopology t) {
    return new CpuAllocator(t).allocate(t.onlineCpus(), 1, CpuPriority.NORMAL);
  }

  /** A gauge as Prometheus prints it: labels sorted, integer value. */
  private static String line(Gauge g) {
    String labels =
        new TreeMap<>(g.labels())
            .entrySet().stream()
                .map(e -> e.getKey() + "=\"" + e.getValue() + "\"")
                .collect(Collectors.joining(","));
    return g.name() + "{" + labels + "} " + (long) g.value();
  }

  private static Gauge gauge(List<Gauge> gauges, String balloon) {
    return gauges.stream()
        .filter(g -> g.labels().get("balloon").equals(balloon))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no gauge of " + balloon + " in " + gauges));
  }

  @Test
  void theTest02MetricsLineIsReproduced() throws Exception {
    CpuSet reserved = reservedOne(N4C16);
    BalloonsOptions options = parse(METRICS_CFG);
    BalloonsPolicy p = new BalloonsPolicy(NAME, N4C16, options, N4C16.onlineCpus(), reserved);
    BalloonsView view = new BalloonsView(N4C16, options, N4C16.onlineCpus(), reserved);
    List<Gauge> gauges = view.gauges(test02State(p), Map.of(), node.cache());

    assertEquals(
        List.of("reserved[0]", "default[0]", "full-core[0]"),
        gauges.stream().map(g -> g.labels().get("balloon")).toList());
    String full = line(gauge(gauges, "full-core[0]"));
    assertTrue(Pattern.compile(TEST02_LINE).matcher(full).find(), full);
    assertEquals(
        "balloons{balloon=\"full-core[0]\",balloon_type=\"full-core\","
            + "containers=\"pod0:pod0c0,pod0:pod0c1\",cpu_class=\"normal\",cpus=\"2-3\","
            + "cpus_allowed=\"2-3\",cpus_allowed_count=\"2\",cpus_count=\"2\",cpus_max=\"2\","
            + "cpus_min=\"2\",dies=\"p0d0\",dies_count=\"1\",mems=\"0\",numas=\"p0d0n0\","
            + "numas_count=\"1\",packages=\"p0\",packages_count=\"1\",sharedidlecpus=\"\","
            + "sharedidlecpus_count=\"0\",tot_req_millicpu=\"200\"} 2",
        full);
    assertEquals(
        "balloons{balloon=\"reserved[0]\",balloon_type=\"reserved\",containers=\"\","
            + "cpu_class=\"\",cpus=\"0\",cpus_allowed=\"0\",cpus_allowed_count=\"1\","
            + "cpus_count=\"1\",cpus_max=\"0\",cpus_min=\"0\",dies=\"p0d0\",dies_count=\"1\","
            + "mems=\"0\",numas=\"p0d0n0\",numas_count=\"1\",packages=\"p0\","
            + "packages_count=\"1\",sharedidlecpus=\"\",sharedidlecpus_count=\"0\","
            + "tot_req_millicpu=\"0\"} 1",
        line(gauge(gauges, "reserved[0]")));
    assertEquals(BalloonsView.GAUGE, gauges.get(0).name());
  }

  @Test
  void theTest02StateIntrospects() throws Exception {
    CpuSet reserved = reservedOne(N4C16);
    BalloonsOptions options = parse(METRICS_CFG);
    BalloonsPolicy p = new BalloonsPolicy(NAME, N4C16, options, N4C16.onlineCpus(), reserved);
    BalloonsView view = new BalloonsView(N4C16, options, N4C16.onlineCpus(), reserved);
    TreeMap<String, CpuSet> classes = new TreeMap<>(Map.of("normal", CpuSet.parse("2-3")));
    JsonNode json = view.introspect(test02State(p), Map.of(), classes, node.cache());

    assertEquals(
        "{\"name\":\"full-core[0]\",\"type\":\"full-core\",\"index\":0,\"fixed\":false,"
            + "\"cpus\":\"2-3\",\"sharedIdleCpus\":\"\",\"cpusAllowed\":\"2-3\",\"mems\":\"0\","
            + "\"numas\":[\"p0d0n0\"],\"dies\":[\"p0d0\"],\"packages\":[\"p0\"],"
            + "\"cpuClass\":\"normal\",\"minCpus\":2,\"maxCpus\":2,\"requestMilli\":200,"
            + "\"containers\":[{\"id\":\"uid-pod0:pod0c0\",\"name\":\"pod0:pod0c0\","
            + "\"requestMilli\":100},{\"id\":\"uid-pod0:pod0c1\",\"name\":\"pod0:pod0c1\","
            + "\"requestMilli\":100}]}",
        json.get("balloons").get(2).toString());
    assertEquals("1,4-15", json.get("freeCpus").asText());
    assertEquals("0", json.get("reservedCpus").asText());
    assertEquals("0-15", json.get("allowedCpus").asText());
    assertEquals("{\"normal\":\"2-3\"}", json.get("cpuClasses").toString());
    assertEquals("", json.get("idleCpuClass").asText());
    JsonNode types = json.get("options").get("BalloonTypes");
    assertEquals(
        "[\"reserved\",\"full-core\",\"fast-dualcore\",\"flex\",\"default\"]", names(types));
    assertEquals(
        "{\"Name\":\"flex\",\"Namespaces\":[],\"MinCPUs\":0,\"MaxCPUs\":8,\"MinBalloons\":0,"
            + "\"MaxBalloons\":0,\"AllocatorPriority\":0,\"CPUClass\":\"slow\","
            + "\"ShareIdleCPUsInSame\":\"\",\"PinMemory\":true}",
        types.get(3).toString());
  }

  /**
   * {@code balloons-dynamic.cfg} of cri-resmgr's balloons e2e n4c32 test01, without a CPU limit.
   */
  private static final String DYNAMIC_CFG =
      """
      AllocatorTopologyBalancing: true
      BalloonTypes:
        - {Name: dynamic, MaxBalloons: 8, PreferNewBalloons: true, ShareIdleCpusInSame: numa}
      """;

  private BalloonsView dynamicView() throws Exception {
    return new BalloonsView(N4C32, parse(DYNAMIC_CFG), N4C32.onlineCpus(), CpuSet.of(31));
  }

  private static Balloon dynamic(int index, String cpus, Map<String, Long> containers) {
    return new Balloon("dynamic", index, CpuSet.parse(cpus), false, new TreeMap<>(containers));
  }

  @Test
  void sharedIdleCpusWidenTheAllowedCpusOnN4c32() throws Exception {
    node.create("pod0", "pod0c0", FakeNode.cpu(3000, 3000));
    Balloon b = dynamic(0, "0-2", Map.of("uid-pod0:pod0c0", 3000L));
    List<Gauge> gauges =
        dynamicView().gauges(List.of(b), Map.of("dynamic[0]", CpuSet.of(3)), node.cache());
    assertEquals(
        "balloons{balloon=\"dynamic[0]\",balloon_type=\"dynamic\",containers=\"pod0:pod0c0\","
            + "cpu_class=\"\",cpus=\"0-2\",cpus_allowed=\"0-3\",cpus_allowed_count=\"4\","
            + "cpus_count=\"3\",cpus_max=\"0\",cpus_min=\"0\",dies=\"p0d0\",dies_count=\"1\","
            + "mems=\"0\",numas=\"p0d0n0\",numas_count=\"1\",packages=\"p0\","
            + "packages_count=\"1\",sharedidlecpus=\"3\",sharedidlecpus_count=\"1\","
            + "tot_req_millicpu=\"3000\"} 3",
        line(gauges.get(0)));
  }

  @Test
  void topologyElementsAreTreeNamesInTreeOrderOnN4c32() throws Exception {
    Balloon twoNodes = dynamic(1, "0-4", Map.of());
    Balloon twoPackages = dynamic(2, "7-8,15-16,23,31", Map.of());
    BalloonsView view = dynamicView();
    Map<String, String> a = view.gauges(List.of(twoNodes), Map.of(), node.cache()).get(0).labels();
    assertEquals("p0d0n0,p0d0n1", a.get("numas"));
    assertEquals("2", a.get("numas_count"));
    assertEquals("p0d0", a.get("dies"));
    assertEquals("1", a.get("dies_count"));
    assertEquals("0,1", a.get("mems"));
    Map<String, String> b =
        view.gauges(List.of(twoPackages), Map.of(), node.cache()).get(0).labels();
    assertEquals("p0d0n1,p0d1n2,p0d1n3,p1d0n4,p1d0n5,p1d1n7", b.get("numas"));
    assertEquals("p0d0,p0d1,p1d0,p1d1", b.get("dies"));
    assertEquals("4", b.get("dies_count"));
    assertEquals("p0,p1", b.get("packages"));
    assertEquals("1,2,3,4,5,7", b.get("mems"));
  }

  @Test
  void anEmptyBalloonHasEmptyLabels() throws Exception {
    Map<String, String> l =
        dynamicView()
            .gauges(List.of(dynamic(0, "", Map.of())), Map.of(), node.cache())
            .get(0)
            .labels();
    for (String key : List.of("cpus", "numas", "dies", "packages", "mems", "containers")) {
      assertEquals("", l.get(key), key);
    }
    assertEquals("0", l.get("cpus_count"));
    assertEquals("0", l.get("numas_count"));
    assertEquals("0", l.get("tot_req_millicpu"));
    assertEquals(20, l.size());
  }

  @Test
  void containersAreSortedPodNamesAndUnknownOnesAreLeftOutOfTheGauge() throws Exception {
    node.create("pod2", "c0", FakeNode.cpu(200, 200));
    node.create("pod10", "c1", FakeNode.cpu(1000, 1000));
    node.create("pod10", "c0", FakeNode.cpu(500, 500));
    Balloon b =
        dynamic(
            0,
            "0-1",
            Map.of(
                "uid-pod2:c0",
                200L,
                "uid-pod10:c1",
                1000L,
                "uid-pod10:c0",
                500L,
                "uid-gone:c",
                7L));
    BalloonsView view = dynamicView();
    Map<String, String> l = view.gauges(List.of(b), Map.of(), node.cache()).get(0).labels();
    assertEquals("pod10:c0,pod10:c1,pod2:c0", l.get("containers"));
    assertEquals("1700", l.get("tot_req_millicpu"));
    JsonNode json =
        view.introspect(List.of(b), Map.of(), new TreeMap<>(), node.cache()).get("balloons");
    assertEquals(
        "[{\"id\":\"uid-pod10:c0\",\"name\":\"pod10:c0\",\"requestMilli\":500},"
            + "{\"id\":\"uid-pod10:c1\",\"name\":\"pod10:c1\",\"requestMilli\":1000},"
            + "{\"id\":\"uid-pod2:c0\",\"name\":\"pod2:c0\",\"requestMilli\":200},"
            + "{\"id\":\"uid-gone:c\",\"name\":\"\",\"requestMilli\":7}]",
        json.get(0).get("containers").toString());
    assertEquals(1707, json.get(0).get("requestMilli").asLong());
  }

  /**
   * cri-resmgr's balloons e2e n4c32 test01 step 1 on a real state: eight 3-CPU pods get a balloon
   * per NUMA node; with the idle CPU of each node shared (node 7's is the reserved CPU 31), the
   * lines match what the e2e test greps.
   */
  @Test
  void theN4c32Test01LinesAreReproduced() throws Exception {
    BalloonsOptions options = parse(DYNAMIC_CFG);
    BalloonsPolicy p = new BalloonsPolicy(NAME, N4C32, options, N4C32.onlineCpus(), CpuSet.of(31));
    for (int i = 0; i < 8; i++) {
      annotatedPod("pod" + i, "dynamic");
      node.apply(
          p.allocate(
              node.create("pod" + i, "pod" + i + "c0", FakeNode.cpu(3000, 3000)), node.cache()));
    }
    List<Balloon> balloons = BalloonState.read(node.cache().policyData(NAME).orElseThrow());
    CpuSet used = balloons.stream().map(Balloon::cpus).reduce(CpuSet.EMPTY, CpuSet::union);
    Map<String, CpuSet> shared = new TreeMap<>();
    for (Balloon b : balloons) {
      int n = N4C32.cpuNodes(b.cpus()).get(0);
      shared.put(b.name(), N4C32.node(n).cpus().difference(used));
    }
    List<Gauge> gauges =
        new BalloonsView(N4C32, options, N4C32.onlineCpus(), CpuSet.of(31))
            .gauges(balloons, shared, node.cache());
    List<String> lines = gauges.stream().map(BalloonsViewTest::line).toList();
    for (int k = 0; k < 8; k++) {
      assertHasLine(lines, "balloon=\"dynamic\\[" + k + "\\]\".*cpus_count=\"3\"*");
    }
    for (String re :
        List.of(
            "sharedidlecpus_count=\"1\"",
            "cpus_allowed_count=\"4\"",
            "sharedidlecpus_count=\"0\"",
            "cpus_allowed_count=\"3\"")) {
      assertHasLine(lines, re);
    }
    for (String re :
        List.of("cpus_count=\"4\"", "sharedidlecpus_count=\"2\"", "cpus_allowed_count=\"5\"")) {
      assertTrue(lines.stream().noneMatch(l -> Pattern.compile(re).matcher(l).find()), re);
    }
    // one balloon per NUMA node
    assertEquals(
        List.of("p0d0n0", "p0d0n1", "p0d1n2", "p0d1n3", "p1d0n4", "p1d0n5", "p1d1n6", "p1d1n7"),
        gauges.stream()
            .filter(g -> g.labels().get("balloon_type").equals("dynamic"))
            .map(g -> g.labels().get("numas"))
            .sorted()
            .toList());
  }

  private static void assertHasLine(List<String> lines, String re) {
    Pattern p = Pattern.compile(re);
    assertTrue(lines.stream().anyMatch(l -> p.matcher(l).find()), re + " in " + lines);
  }

  private static String names(JsonNode types) {
    StringBuilder out = new StringBuilder("[");
    types.forEach(t -> out.append(out.length() > 1 ? "," : "").append(t.get("Name")));
    return out.append("]").toString();
  }
}
