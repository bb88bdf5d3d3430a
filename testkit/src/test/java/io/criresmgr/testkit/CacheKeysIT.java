package io.criresmgr.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.cache.CpuSet;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two containers never share a cache key, so one CPU is never given exclusively twice: a UID and a
 * name that contain {@code :}, and a second live pod with the UID of a running one. The daemon runs
 * the template policy (whole CPUs exclusive) in front of the simulated runtime.
 */
class CacheKeysIT {
  private static final LinuxContainerResources ONE_WHOLE_CPU =
      LinuxContainerResources.newBuilder()
          .setCpuShares(1024)
          .setCpuPeriod(100_000)
          .setCpuQuota(100_000)
          .setMemoryLimitInBytes(64L << 20)
          .build();

  @TempDir Path dir;

  private static String exclusive(KubeletClient kubelet, String pod, String name) {
    return kubelet.run(
        pod, Map.of(), "/kubepods/pod" + pod, name, InProcessDaemon.IMAGE, ONE_WHOLE_CPU);
  }

  @Test
  void colonsInUidsAndNamesKeepContainersApart() throws Exception {
    try (InProcessDaemon daemon = InProcessDaemon.start(dir, "template");
        KubeletClient kubelet = new KubeletClient(daemon.relaySocket(), daemon.runtimeSocket())) {
      // UIDs uid-a:b and uid-a, containers c and b:c: both were "uid-a:b:c".
      CpuSet first = CpuSet.parse(kubelet.cpuset(exclusive(kubelet, "a:b", "c")));
      CpuSet second = CpuSet.parse(kubelet.cpuset(exclusive(kubelet, "a", "b:c")));
      assertEquals(1, first.size());
      assertEquals(1, second.size());
      assertFalse(first.intersects(second), first + " given twice");
    }
  }

  @Test
  void aSecondLivePodWithTheSameUidIsRefused() throws Exception {
    try (InProcessDaemon daemon = InProcessDaemon.start(dir, "template");
        KubeletClient kubelet = new KubeletClient(daemon.relaySocket(), daemon.runtimeSocket())) {
      String running = exclusive(kubelet, "web", "c");
      String cpus = kubelet.cpuset(running);

      StatusRuntimeException e =
          assertThrows(StatusRuntimeException.class, () -> exclusive(kubelet, "web", "c"));
      assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
      String old = sandboxOf(kubelet);
      assertEquals(
          "pod default/web has UID uid-web, which sandbox "
              + old
              + " has too, with containers c still running; stop that sandbox first (two live"
              + " pods must not share a UID)",
          e.getStatus().getDescription());
      assertEquals(cpus, kubelet.cpuset(running));

      // kubelet's own re-creation: the old sandbox is stopped first (and removed here, so that
      // the runtime frees the sandbox name this client reuses).
      kubelet
          .relay()
          .stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(old).build());
      kubelet
          .relay()
          .removePodSandbox(RemovePodSandboxRequest.newBuilder().setPodSandboxId(old).build());
      assertEquals(1, CpuSet.parse(kubelet.cpuset(exclusive(kubelet, "web", "c"))).size());
    }
  }

  private static String sandboxOf(KubeletClient kubelet) {
    return kubelet
        .runtime()
        .listPodSandbox(ListPodSandboxRequest.getDefaultInstance())
        .getItems(0)
        .getId();
  }
}
