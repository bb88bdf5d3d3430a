package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon in NRI mode ({@code cri-resmgr --nri}, docs/nri.md) inside the VM bed, as containerd
 * 1.7.24's NRI plugin, with the topology-aware policy; pods and containers are made through
 * containerd's CRI directly, as kubelet does in NRI mode. No CPU is reserved, so both of the VM's 2
 * CPUs form the shared pool: a whole-CPU Guaranteed container gets one of them exclusively in its
 * cgroup's {@code cpuset.cpus} (CreateContainer's adjustment) and the shared container is squeezed
 * onto the other (the update in CreateContainer's answer); {@code /introspect} shows both
 * placements; removing the exclusive container gives its CPU back to the shared one (NRI's
 * UpdateContainers). Then the daemon is stopped and, later, killed: containerd creates pods and
 * containers meanwhile without waiting, and the daemon started again on the same cache adopts what
 * was created, forgets what was removed and keeps the CPUs it had given. The memory QoS classes set
 * the files and order the swap as in proxy mode ({@link VmMemoryQosIT#assertMemoryQos}). A hung
 * daemon (SIGSTOP) is dropped by containerd after its request timeout and resynchronizes once
 * resumed. Last, the daemon runs the balloons and then the template policy with their suites'
 * configurations and places as in proxy mode. One VM boot and five daemon starts for the class.
 */
@Tag("e2e")
@ExtendWith(VmBed.Extension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NriModeVmIT {
  private static final Logger LOG = LoggerFactory.getLogger(NriModeVmIT.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);
  // the VM's containerd waits 30 s for a plugin's answer (e2e/vm/guest/guest-init.sh)
  private static final Duration PROMPT = Duration.ofSeconds(20);

  /** The VM's {@code plugin_request_timeout} (e2e/vm/guest/guest-init.sh). */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /**
   * How long a resumed plugin may take to be registered and synchronized again: its first retry
   * after 1 s, then containerd's registration and request timeouts (30 s each in the VM).
   */
  private static final Duration RESYNC = REQUEST_TIMEOUT.multipliedBy(3);

  private static final String PLUGIN = "90-cri-resmgr";
  private static final String CONTAINERD_LOG = "/run/crivm/containerd.log";
  private static final String HTTP = "127.0.0.1:8893";
  private static final String CONFIG =
      """
      policy:
        Active: topology-aware
        ReservedResources:
          CPU: 0
      instrumentation:
        HTTPEndpoint: %s
        PrometheusExport: false
      """
              .formatted(HTTP)
          + VmMemoryQosIT.MEMORY_QOS_SECTION;

  private static @Nullable VmBed bed;
  private static @Nullable VmDaemon daemon;

  @BeforeAll
  static void startDaemon(VmBed vm) throws IOException {
    bed = vm;
    daemon = VmDaemon.startNri(vm, "nri-mode", CONFIG);
  }

  @AfterAll
  static void stopDaemon() throws IOException {
    if (daemon != null) {
      LOG.info("cri-resmgr --nri's warnings and errors:\n{}", daemon.warningsAndErrors());
      daemon.close();
    }
  }

  @Test
  @Order(1)
  void exclusiveCpuSqueezesTheSharedContainerAndComesBackAfterRemoval() throws Exception {
    VmBed vm = ResmgrBed.require(bed);
    VmDaemon nri = ResmgrBed.require(daemon);
    VmNode node = new VmNode(vm.shell());
    String name = podName("nri");
    WorkflowSpec spec =
        WorkflowSpec.guaranteed(name, Path.of("/tmp", name), WorkflowSpec.NAMESPACE);
    try (CriClient cri = new CriClient(vm.criSocket());
        PinnedPod pod = PinnedPod.run(cri, spec, node)) {
      String web = pod.start("web", PinnedPod.halfCpuShared());
      awaitCpus("0-1", node, spec, web, "the shared container alone");

      String db = pod.start("db", PinnedPod.oneWholeCpu());
      String exclusive = cpus(node, spec, db);
      assertTrue(Set.of("0", "1").contains(exclusive), "db's exclusive CPU: " + exclusive);
      String shared = exclusive.equals("0") ? "1" : "0";
      awaitCpus(shared, node, spec, web, "the shared container beside db's exclusive CPU");
      assertEquals(
          Map.of("web", shared, "db", exclusive), introspectedCpus(vm, name), "/introspect");

      pod.remove(db);
      awaitCpus("0-1", node, spec, web, "the shared container after db's removal");
      assertEquals(Map.of("web", "0-1"), introspectedCpus(vm, name), "/introspect after removal");
      assertNotDropped(nri);
    } catch (AssertionError | RuntimeException e) {
      logFailure(vm);
      throw e;
    }
  }

  @Test
  @Order(2)
  void restartAndCrashNeitherBlockCreationAndResynchronize() throws Exception {
    VmBed vm = ResmgrBed.require(bed);
    VmNode node = new VmNode(vm.shell());
    String name = podName("nri-keep");
    WorkflowSpec spec =
        WorkflowSpec.guaranteed(name, Path.of("/tmp", name), WorkflowSpec.NAMESPACE);
    try (CriClient cri = new CriClient(vm.criSocket());
        PinnedPod pod = PinnedPod.run(cri, spec, node)) {
      String web = pod.start("web", PinnedPod.halfCpuShared());
      String db = pod.start("db", PinnedPod.oneWholeCpu());
      String exclusive = cpus(node, spec, db);
      String shared = exclusive.equals("0") ? "1" : "0";
      awaitCpus(shared, node, spec, web, "web beside db's exclusive CPU");

      String lateName = podName("nri-late");
      WorkflowSpec lateSpec =
          WorkflowSpec.guaranteed(lateName, Path.of("/tmp", lateName), WorkflowSpec.NAMESPACE);
      ResmgrBed.require(daemon).close();
      long t0 = System.nanoTime();
      try (PinnedPod late = PinnedPod.run(cri, lateSpec, node)) {
        String lateId = late.start("late", PinnedPod.halfCpuShared());
        assertPrompt(t0, "a pod and container made with no plugin registered");
        daemon = restarted();
        awaitCpus(exclusive, node, spec, db, "db's exclusive CPU after the restart");
        awaitCpus(shared, node, spec, web, "web after the restart");
        awaitCpus(shared, node, lateSpec, lateId, "the container made while no plugin ran");
        assertEquals(Map.of("late", shared), introspectedCpus(vm, lateName), "adopted");

        ResmgrBed.require(daemon).kill();
      }
      t0 = System.nanoTime();
      String crash = pod.start("crash", PinnedPod.halfCpuShared());
      assertPrompt(t0, "a container made after the plugin was killed");
      daemon = restarted();
      awaitCpus(shared, node, spec, crash, "the container made after the crash");
      awaitCpus(exclusive, node, spec, db, "db's exclusive CPU after the crash");
      assertEquals(
          Map.of("web", shared, "db", exclusive, "crash", shared),
          introspectedCpus(vm, name),
          "/introspect after the crash");
      assertEquals(Map.of(), introspectedCpus(vm, lateName), "the pod removed while down");
    } catch (AssertionError | RuntimeException e) {
      logFailure(vm);
      throw e;
    }
  }

  @Test
  @Order(5)
  void balloonsPlaceAsInProxyMode() throws Exception {
    VmBed vm = ResmgrBed.require(bed);
    VmDaemon topologyAware = ResmgrBed.require(daemon);
    LOG.info("topology-aware's warnings and errors:\n{}", topologyAware.warningsAndErrors());
    topologyAware.close();
    daemon = null;
    daemon = VmDaemon.startNri(vm, "nri-balloons", BalloonsPolicySuite.CONFIG);
    VmNode node = new VmNode(vm.shell());
    String name = podName("nri-bl");
    Path logs = Path.of("/tmp", name);
    try (CriClient cri = new CriClient(vm.criSocket())) {
      BalloonsPolicySuite.assertPlacements(cri, name, logs, node);
    } catch (AssertionError | RuntimeException e) {
      logFailure(vm);
      throw e;
    }
  }

  /**
   * Memory QoS as {@link VmMemoryQosIT} checks it in proxy mode, with the same expectations: here
   * the classes' {@code memory.high} and {@code memory.swap.max} reach runc as CreateContainer's
   * adjustment ({@code unified}) and the resize's {@code memory.high} as the answer to NRI's
   * UpdateContainer. The topology-aware policy places the burstable containers in the shared pool,
   * which changes no memory file.
   */
  @Test
  @Order(3)
  void memoryQosClassesSetTheFilesOrderTheSwapAndFollowTheLimit() throws Exception {
    VmBed vm = ResmgrBed.require(bed);
    try (CriClient cri = new CriClient(vm.criSocket())) {
      VmMemoryQosIT.assertMemoryQos(vm, ResmgrBed.require(daemon), cri, "nri-mq");
      assertNotDropped(ResmgrBed.require(daemon));
    } catch (AssertionError | RuntimeException e) {
      logFailure(vm);
      throw e;
    }
  }

  /**
   * A hung plugin (SIGSTOP: its connection stays open, nothing answers). containerd 1.7.24 (NRI
   * v0.6.1) waits its {@code plugin_request_timeout} for CreateContainer's answer, then logs {@code
   * closing plugin 90-cri-resmgr, failed to handle CreateContainer request: context deadline
   * exceeded}, drops the plugin and creates the container without an adjustment (its {@code
   * cpuset.cpus} stays empty); what follows is created at once. Resumed (SIGCONT), the daemon finds
   * the connection closed, registers again, and the new connection's Synchronize places everything:
   * the container created meanwhile gets its exclusive CPU, the shared ones the other.
   */
  @Test
  @Order(4)
  void aHungPluginIsDroppedAfterTheRequestTimeoutAndResynchronizesWhenResumed() throws Exception {
    VmBed vm = ResmgrBed.require(bed);
    VmDaemon nri = ResmgrBed.require(daemon);
    VmNode node = new VmNode(vm.shell());
    String name = podName("nri-hang");
    WorkflowSpec spec =
        WorkflowSpec.guaranteed(name, Path.of("/tmp", name), WorkflowSpec.NAMESPACE);
    String lateName = podName("nri-hang-late");
    WorkflowSpec lateSpec =
        WorkflowSpec.guaranteed(lateName, Path.of("/tmp", lateName), WorkflowSpec.NAMESPACE);
    try (CriClient cri = new CriClient(vm.criSocket());
        PinnedPod pod = PinnedPod.run(cri, spec, node)) {
      String web = pod.start("web", PinnedPod.halfCpuShared());
      awaitCpus("0-1", node, spec, web, "the shared container alone");
      int dropsBefore = closingLines(vm).size();
      int syncsBefore = count(nri.log(), "synchronized with NRI");

      nri.suspend();
      PinnedPod late = null;
      try {
        long t0 = System.nanoTime();
        String db = pod.start("db", PinnedPod.oneWholeCpu());
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("a container made while the plugin hangs: {} ms", took.toMillis());
        assertTrue(
            took.compareTo(REQUEST_TIMEOUT) >= 0,
            "created in " + took + ", before containerd's request timeout " + REQUEST_TIMEOUT);
        assertTrue(
            took.compareTo(REQUEST_TIMEOUT.plus(PROMPT)) < 0,
            "created in " + took + ", not within " + PROMPT + " after the request timeout");
        List<String> drops = closingLines(vm);
        assertEquals(dropsBefore + 1, drops.size(), "containerd's closing lines: " + drops);
        String drop = drops.get(drops.size() - 1);
        assertTrue(
            drop.contains(
                "closing plugin "
                    + PLUGIN
                    + ", failed to handle CreateContainer request: context deadline exceeded"),
            drop);
        assertEquals("", cpus(node, spec, db), "db, created without the adjustment");
        assertEquals("0-1", cpus(node, spec, web), "web, which no answer squeezed");

        t0 = System.nanoTime();
        late = PinnedPod.run(cri, lateSpec, node);
        String lateId = late.start("late", PinnedPod.halfCpuShared());
        assertPrompt(t0, "a pod and container made after containerd dropped the hung plugin");
        assertEquals("", cpus(node, lateSpec, lateId), "late, created without a plugin");

        nri.resume();
        awaitLogCount(nri, "synchronized with NRI", syncsBefore + 1);
        assertTrue(
            nri.log().contains("the runtime closed the NRI connection; reconnecting"),
            "the resumed daemon did not see containerd close the connection");
        String exclusive = awaitOneCpu(node, spec, db);
        String shared = exclusive.equals("0") ? "1" : "0";
        awaitCpus(shared, node, spec, web, "web beside db's exclusive CPU after the resync");
        awaitCpus(shared, node, lateSpec, lateId, "late after the resync");
        assertEquals(
            Map.of("web", shared, "db", exclusive),
            introspectedCpus(vm, name),
            "/introspect after the resync");
        assertEquals(Map.of("late", shared), introspectedCpus(vm, lateName), "late adopted");
      } finally {
        try {
          nri.resume();
        } catch (IOException | RuntimeException e) {
          // Not over the failure that brought us here: the daemon is stopped after the class.
          LOG.warn("could not resume the suspended daemon: {}", e.toString());
        }
        if (late != null) {
          late.close();
        }
      }
    } catch (AssertionError | RuntimeException e) {
      logFailure(vm);
      throw e;
    }
  }

  /**
   * {@link TemplatePolicySuite}'s checks with the daemon in NRI mode running {@link
   * TemplatePolicySuite#CONFIG}: the shared container's new CPU, an update in CreateContainer's
   * answer, is in its cgroup when the whole-CPU container's creation returns, as in proxy mode.
   */
  @Test
  @Order(6)
  void templatePlacesAsInProxyMode() throws Exception {
    VmBed vm = ResmgrBed.require(bed);
    VmDaemon balloons = ResmgrBed.require(daemon);
    LOG.info("balloons' warnings and errors:\n{}", balloons.warningsAndErrors());
    balloons.close();
    daemon = null;
    daemon = VmDaemon.startNri(vm, "nri-template", TemplatePolicySuite.CONFIG);
    String name = podName("nri-tpl");
    try (CriClient cri = new CriClient(vm.criSocket())) {
      TemplatePolicySuite.assertPlacements(
          cri, new WorkflowSpec(name, Path.of("/tmp", name)), new VmNode(vm.shell()));
      assertNotDropped(ResmgrBed.require(daemon));
    } catch (AssertionError | RuntimeException e) {
      logFailure(vm);
      throw e;
    }
  }

  /** Starts the daemon again with the same state directory (its cache) after a stop or a crash. */
  private static VmDaemon restarted() throws IOException {
    VmDaemon gone = ResmgrBed.require(daemon);
    LOG.info("warnings and errors before the restart:\n{}", gone.warningsAndErrors());
    return gone.restart(CONFIG);
  }

  /**
   * Fails unless what began at {@code t0} (System.nanoTime()) took less than {@link #PROMPT}: well
   * under the VM's NRI request timeout, which a creation waiting for an absent plugin would reach.
   */
  private static void assertPrompt(long t0, String what) {
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    LOG.info("{}: {} ms", what, took.toMillis());
    assertTrue(took.compareTo(PROMPT) < 0, what + " took " + took + ", not under " + PROMPT);
  }

  /**
   * Fails if the daemon's log shows that containerd dropped the plugin (a request over its
   * timeout): the placements would then have come from a new connection's Synchronize.
   */
  private static void assertNotDropped(VmDaemon nri) throws IOException {
    assertTrue(
        !nri.log().contains("the runtime closed the NRI connection"),
        "containerd dropped the plugin (a request over its timeout): the placements above came"
            + " from a new connection's Synchronize");
  }

  /** containerd's log lines saying it closed our plugin. */
  private static List<String> closingLines(VmBed vm) throws IOException {
    String out =
        vm.shell().check("grep -F 'closing plugin " + PLUGIN + "' " + CONTAINERD_LOG + " || true");
    return out.lines().filter(l -> !l.isBlank()).toList();
  }

  private static int count(String text, String what) {
    return (int) text.lines().filter(l -> l.contains(what)).count();
  }

  /**
   * Waits (up to {@link #RESYNC}) until {@code what} shows at least {@code times} times in the log
   * (one more reconnect than expected is no failure).
   */
  private static void awaitLogCount(VmDaemon nri, String what, int times) throws Exception {
    long deadline = System.nanoTime() + RESYNC.toNanos();
    int seen = count(nri.log(), what);
    while (seen < times && System.nanoTime() < deadline) {
      Thread.sleep(500);
      seen = count(nri.log(), what);
    }
    assertTrue(
        seen >= times,
        "the daemon logged '" + what + "' " + seen + " times within " + RESYNC + ", not " + times);
  }

  /** Waits (up to {@link #RESYNC}) until container {@code id}'s cgroup holds one CPU, 0 or 1. */
  private static String awaitOneCpu(VmNode node, WorkflowSpec spec, String id) throws Exception {
    Set<String> one = Set.of("0", "1");
    long deadline = System.nanoTime() + RESYNC.toNanos();
    String actual = cpus(node, spec, id);
    while (!one.contains(actual) && System.nanoTime() < deadline) {
      Thread.sleep(200);
      actual = cpus(node, spec, id);
    }
    assertTrue(one.contains(actual), "db's exclusive CPU after the resync: '" + actual + "'");
    return actual;
  }

  private static void logFailure(VmBed vm) throws IOException {
    if (daemon != null) {
      LOG.error("cri-resmgr --nri's log in the VM:\n{}", daemon.log());
    }
    LOG.error(
        "containerd's NRI lines and /introspect:\n{}",
        vm.shell()
            .check(
                "grep -iE 'nri|plugin|resmgr' /run/crivm/containerd.log | tail -60;"
                    + " busybox wget -qO- http://"
                    + HTTP
                    + "/introspect || true"));
  }

  private static String cpus(VmNode node, WorkflowSpec spec, String id) throws IOException {
    return node.containerFiles(spec.cgroupParent(), id, "cpuset.cpus").get("cpuset.cpus");
  }

  /** Waits until container {@code id}'s cgroup holds {@code expected} CPUs. */
  private static void awaitCpus(
      String expected, VmNode node, WorkflowSpec spec, String id, String what) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String actual = cpus(node, spec, id);
    while (!expected.equals(actual) && System.nanoTime() < deadline) {
      Thread.sleep(200);
      actual = cpus(node, spec, id);
    }
    assertEquals(expected, actual, what + ": " + VmNode.containerDir(spec.cgroupParent(), id));
  }

  /** The CPUs {@code /introspect} (read in the VM) shows for each container of pod {@code pod}. */
  private static Map<String, String> introspectedCpus(VmBed vm, String pod) throws IOException {
    String url = "http://" + HTTP + "/introspect";
    String text = vm.shell().check("busybox wget -qO- " + url + " || wget -qO- " + url);
    Map<String, String> cpus = new HashMap<>();
    for (JsonNode p : JSON.readTree(text).path("pods")) {
      if (p.path("name").asText().equals(pod)) {
        for (JsonNode c : p.path("containers")) {
          cpus.put(c.path("name").asText(), c.path("assignment").path("cpus").asText());
        }
      }
    }
    return cpus;
  }
}
