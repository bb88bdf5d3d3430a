package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.CGROUPS;
import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crictl-style pod and container lifecycle against a real containerd, first directly and then
 * through {@code bin/cri-resmgr} with policy {@code none}: both runs must observe the same. Skipped
 * when not root or when the bed cannot start, unless {@code CI=true} or {@code
 * -De2e.required=true}.
 */
@Tag("e2e")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CrictlWorkflowIT extends ResmgrBedTestBase {
  private static final Logger LOG = LoggerFactory.getLogger(CrictlWorkflowIT.class);
  private static @Nullable Observations direct;

  @Test
  @Order(1)
  void directToContainerdAppliesTheRequestedResources() throws Exception {
    Observations o = direct();
    assertTrue(
        o.calls().subList(0, o.calls().size() - 1).stream().allMatch(c -> c.endsWith(" OK")),
        o.calls()::toString);
    assertEquals("ContainerStatus NOT_FOUND", o.calls().get(o.calls().size() - 1));
    assertTrue(o.version().matches("0\\.1\\.0 containerd \\S+ v1"), o.version());
    assertTrue(o.e2eImages().contains(WorkflowSpec.BUSYBOX), o.e2eImages()::toString);
    assertEquals(List.of("SANDBOX_READY", "SANDBOX_NOTREADY"), o.podStates());
    assertEquals(
        List.of("CONTAINER_CREATED", "CONTAINER_RUNNING", "CONTAINER_EXITED"), o.containerStates());
    assertEquals(execResult("0"), o.exec());
    assertTrue(o.log().contains("stdout F " + WorkflowSpec.HELLO), o.log()::toString);
    assertEquals(new CgroupValues("0", "268435456", "512"), o.cgroups());
    assertEquals(new CgroupValues("1", "268435456", "512"), o.cgroupsAfterUpdate());
    assertEquals(execResult("1"), o.execAfterUpdate());
    assertEquals(0, o.exitCode());
    assertFalse(o.listedAfterRemove());
    assertTrue(o.missingContainerError().startsWith("NOT_FOUND: "), o.missingContainerError());
  }

  @Test
  @Order(2)
  void throughTheProxyObservesTheSameAsDirect() throws Exception {
    Observations expected = direct();
    CriResmgrProcess proxy = bed().startProxy();
    Observations viaProxy = run(proxy.relaySocket(), "proxy");
    assertEquals(expected, viaProxy);
  }

  private static String execResult(String cpus) {
    return "exit 0, stdout [exec-ok\nCpus_allowed_list:\t" + cpus + "\n], stderr []";
  }

  /** The direct run, made once and shared by both tests. */
  private static synchronized Observations direct() throws Exception {
    if (direct == null) {
      direct = run(bed().socket(), "direct");
    }
    return direct;
  }

  private static Observations run(Path socket, String label) throws Exception {
    var spec = new WorkflowSpec(podName(label), bed().workDir().resolve(label).resolve("logs"));
    long t0 = System.nanoTime();
    try (CriClient cri = new CriClient(socket)) {
      Observations o = new CrictlWorkflow(cri, spec, CGROUPS).run();
      LOG.info(
          "{} workflow via {} took {} ms: {}",
          label,
          socket,
          (System.nanoTime() - t0) / 1_000_000,
          o);
      return o;
    }
  }
}
