package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.assertCpus;
import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code cgroups} controller of {@code bin/cri-resmgr} (policy {@code template} on CPUs 0-1) in
 * front of a real containerd: a container with one whole CPU and a memory limit has its pinned CPU
 * and its limit in its real cgroup, and when both are changed by hand, a daemon restart puts them
 * back. Run on this host ({@link CgroupsControllerIT}, cgroup v1) and in the VM bed ({@link
 * CgroupsControllerVmIT}, v2). Skipped like {@link TemplatePolicyIT}.
 */
@Tag("e2e")
abstract class CgroupsControllerSuite {
  private static final Logger LOG = LoggerFactory.getLogger(CgroupsControllerSuite.class);
  private static final long MEMORY_LIMIT = 128L << 20;
  private static final long SHARES = 1024;

  /** Below the limit (on v1 the kernel refuses one above memory.memsw.limit_in_bytes). */
  private static final long DRIFTED_LIMIT = 64L << 20;

  private static final long RESTORE_WAIT_MILLIS = 10_000;

  @BeforeAll
  static void startDaemon(SuiteBed bed) throws Exception {
    bed.requireCpus01();
    bed.startDaemon(TemplatePolicySuite.CONFIG);
  }

  @Test
  void pinnedCpuAndMemoryLimitAreInTheCgroupAndARestartRepairsDrift(SuiteBed bed) throws Exception {
    String name = podName("cgroups");
    var spec = new WorkflowSpec(name, bed.logDir(name));
    String parent = spec.cgroupParent();
    try (CriClient cri = new CriClient(bed.daemon().relaySocket());
        PinnedPod pod = PinnedPod.run(cri, spec, bed.node())) {
      var resources = PinnedPod.oneWholeCpu().toBuilder().setMemoryLimitInBytes(MEMORY_LIMIT);
      String id = pod.start("limited", resources.build());
      String pinned = bed.cgroupValues(parent, id).cpusetCpus();
      assertTrue(Set.of("0", "1").contains(pinned), () -> "cpuset.cpus holds " + pinned);
      CgroupValues expected = CgroupValues.of(bed.cgroupVersion(), pinned, MEMORY_LIMIT, SHARES);
      assertEquals(expected, bed.cgroupValues(parent, id), "as created");
      assertCpus(pinned, pod.placement(id), "pinned container");

      bed.writeByHand(parent, id, "0-1", DRIFTED_LIMIT);
      CgroupValues drifted = CgroupValues.of(bed.cgroupVersion(), "0-1", DRIFTED_LIMIT, SHARES);
      assertEquals(drifted, bed.cgroupValues(parent, id), "changed by hand");
      assertCpus("0-1", pod.placement(id), "changed by hand");

      long t0 = System.nanoTime();
      bed.restartDaemon(TemplatePolicySuite.CONFIG);
      await(bed, parent, id, expected);
      LOG.info("restart and repair took {} ms", (System.nanoTime() - t0) / 1_000_000);
      assertCpus(pinned, pod.placement(id), "after the restart");
      String log = bed.daemon().log();
      assertTrue(
          log.contains("restored [cpuset.cpus, memory limit] in the cgroup of " + name + "-uid:"),
          () -> "the cgroups controller did not report the repair:\n" + log);
    } catch (AssertionError | RuntimeException e) {
      LOG.error("cri-resmgr's log:\n{}", bed.daemon().log());
      throw e;
    }
  }

  /** The daemon repairs in {@code start()}, before it serves; poll a little to be robust. */
  private static void await(SuiteBed bed, String parent, String id, CgroupValues expected)
      throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + RESTORE_WAIT_MILLIS;
    while (!bed.cgroupValues(parent, id).equals(expected)
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertEquals(expected, bed.cgroupValues(parent, id), "after the daemon's restart");
  }
}
