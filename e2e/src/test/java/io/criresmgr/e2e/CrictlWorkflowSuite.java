package io.criresmgr.e2e;

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
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crictl-style pod and container lifecycle against a real containerd, first directly and then
 * through {@code bin/cri-resmgr} with policy {@code none}: both runs must observe the same. Run on
 * this host ({@link CrictlWorkflowIT}) and in the VM bed ({@link CrictlWorkflowVmIT}); the cgroup
 * files differ by {@link CgroupVersion}.
 */
@Tag("e2e")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class CrictlWorkflowSuite {
  private static final Logger LOG = LoggerFactory.getLogger(CrictlWorkflowSuite.class);
  private @Nullable Observations direct;

  @Test
  @Order(1)
  void directToContainerdAppliesTheRequestedResources(SuiteBed bed) throws Exception {
    Observations o = direct(bed);
    assertTrue(
        o.calls().subList(0, o.calls().size() - 1).stream().allMatch(c -> c.endsWith(" OK")),
        o.calls()::toString);
    assertEquals("ContainerStatus NOT_FOUND", o.calls().get(o.calls().size() - 1));
    assertTrue(o.version().matches("0\\.1\\.0 containerd \\S+ v1"), o.version());
    // containerd 1.7 adds ContainerdHasNoDeprecationWarnings; both report the runtime ready
    assertTrue(o.runtimeConditions().contains("RuntimeReady=true"), o::toString);
    assertTrue(o.e2eImages().contains(WorkflowSpec.BUSYBOX), o.e2eImages()::toString);
    assertEquals(List.of("SANDBOX_READY", "SANDBOX_NOTREADY"), o.podStates());
    assertEquals(
        List.of("CONTAINER_CREATED", "CONTAINER_RUNNING", "CONTAINER_EXITED"), o.containerStates());
    assertEquals(execResult("0"), o.exec());
    assertTrue(o.log().contains("stdout F " + WorkflowSpec.HELLO), o.log()::toString);
    assertEquals(expectedCgroup(bed, "0"), o.cgroups());
    assertEquals(expectedCgroup(bed, "1"), o.cgroupsAfterUpdate());
    assertEquals(execResult("1"), o.execAfterUpdate());
    assertEquals(0, o.exitCode());
    assertFalse(o.listedAfterRemove());
    assertTrue(o.missingContainerError().startsWith("NOT_FOUND: "), o.missingContainerError());
  }

  @Test
  @Order(2)
  void throughTheProxyObservesTheSameAsDirect(SuiteBed bed) throws Exception {
    Observations expected = direct(bed);
    ResmgrDaemon proxy = bed.startDaemon(CriResmgrProcess.POLICY_NONE);
    Observations viaProxy = run(bed, proxy.relaySocket(), "proxy");
    assertEquals(expected, viaProxy);
  }

  /** 256 MiB and 512 shares: {@code cpu.shares} 512 on v1, {@code cpu.weight} 20 on v2. */
  private static CgroupValues expectedCgroup(SuiteBed bed, String cpus) {
    return CgroupValues.of(
        bed.cgroupVersion(), cpus, WorkflowSpec.MEMORY_LIMIT, WorkflowSpec.CPU_SHARES);
  }

  private static String execResult(String cpus) {
    return "exit 0, stdout [exec-ok\nCpus_allowed_list:\t" + cpus + "\n], stderr []";
  }

  /** The direct run, made once and shared by both tests of the class. */
  private synchronized Observations direct(SuiteBed bed) throws Exception {
    if (direct == null) {
      direct = run(bed, bed.criSocket(), "direct");
    }
    return direct;
  }

  private static Observations run(SuiteBed bed, Path socket, String label) throws Exception {
    String name = podName(label);
    var spec = new WorkflowSpec(name, bed.logDir(name));
    long t0 = System.nanoTime();
    try (CriClient cri = new CriClient(socket)) {
      Observations o = new CrictlWorkflow(cri, spec, bed).run();
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
