package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * What the e2e classes share: a containerd bed, a temporary work directory, optionally {@code
 * bin/cri-resmgr} in front of the bed, and the checks of where containers run. One per test class,
 * started in {@code @BeforeAll} and stopped in {@code @AfterAll}.
 */
final class ResmgrBed {
  static final Path MODULE_DIR = Path.of("").toAbsolutePath();
  static final HostCgroups CGROUPS = new HostCgroups(Path.of("/sys/fs/cgroup"));
  static final ContainerCpus CPUS = new ContainerCpus(Path.of("/proc"), Path.of("/sys/fs/cgroup"));

  private final ContainerdBed bed;
  private final Path workDir;
  private @Nullable CriResmgrProcess proxy;

  private ResmgrBed(ContainerdBed bed, Path workDir) {
    this.bed = bed;
    this.workDir = workDir;
  }

  /** Starts the bed (or skips as {@link ContainerdBed#startOrSkip} does) and a work directory. */
  static ResmgrBed startOrSkip() throws IOException, InterruptedException {
    ContainerdBed bed = ContainerdBed.startOrSkip(MODULE_DIR);
    return new ResmgrBed(bed, Files.createTempDirectory(Path.of("/tmp"), "crm-e2e-"));
  }

  /** The node's online CPUs as the kernel lists them, e.g. {@code 0-1}. */
  static String onlineCpus() throws IOException {
    return Files.readString(Path.of("/sys/devices/system/cpu/online"), StandardCharsets.UTF_8)
        .trim();
  }

  /** Skips (or fails, where e2e is required) unless exactly CPUs 0-1 are online. */
  static void requireCpus01() throws IOException {
    String online = onlineCpus();
    if (!online.equals("0-1")) {
      E2eRequirement.unavailable("this test expects CPUs 0-1 online, not " + online);
    }
  }

  /** Starts {@code bin/cri-resmgr} in front of the bed with {@code configYaml}. */
  CriResmgrProcess startProxy(String configYaml) throws IOException, InterruptedException {
    proxy = CriResmgrProcess.start(launcher(), socket(), workDir.resolve("proxy"), configYaml);
    return proxy;
  }

  /** Starts {@code bin/cri-resmgr} in front of the bed with policy {@code none}. */
  CriResmgrProcess startProxy() throws IOException, InterruptedException {
    proxy = CriResmgrProcess.start(launcher(), socket(), workDir.resolve("proxy"));
    return proxy;
  }

  /**
   * Stops the daemon and starts it again in the same work directory, so that it restores its cache:
   * what a daemon restart on a node looks like.
   */
  CriResmgrProcess restartProxy(String configYaml) throws IOException, InterruptedException {
    require(proxy).close();
    // a daemon that had to be killed leaves its PID file, which would end the wait too early
    Files.deleteIfExists(workDir.resolve("proxy").resolve("cri-resmgr.pid"));
    return startProxy(configYaml);
  }

  /** The started daemon. */
  CriResmgrProcess proxy() {
    return require(proxy);
  }

  /** containerd's socket. */
  Path socket() {
    return bed.socket();
  }

  /** The work directory (created if it went away). */
  Path workDir() throws IOException {
    return Files.createDirectories(workDir);
  }

  /** A pod name unique to this run, ending in {@code suffix}. */
  static String podName(String suffix) {
    return "cri-resmgr-e2e-" + ProcessHandle.current().pid() + "-" + suffix;
  }

  /** Runs pod {@code <name>-sys} in namespace {@code kube-system} through {@code cri}. */
  static PinnedPod runKubeSystemPod(CriClient cri, String name, Path logs) {
    var spec = new WorkflowSpec(name + "-sys", logs, "kube-system", "/" + name + "-sys");
    return PinnedPod.run(cri, spec, E2eNode.HOST);
  }

  /** Stops the daemon and the bed and deletes the work directory. */
  void stop() throws IOException, InterruptedException {
    if (proxy != null) {
      proxy.close();
    }
    bed.stop();
    WorkDirs.deleteTree(workDir);
  }

  /** Cgroup and process agree on {@code cpus}. */
  static void assertCpus(String cpus, ContainerCpus.Placement placement, String what) {
    assertEquals(cpus, placement.cgroupCpus(), () -> what + ": cgroup of " + placement);
    assertEquals(cpus, placement.allowedCpus(), () -> what + ": process of " + placement);
  }

  /** {@code value}, which {@code @BeforeAll} set. */
  static <T> T require(@Nullable T value) {
    if (value == null) {
      throw new IllegalStateException("not started");
    }
    return value;
  }

  private static Path launcher() {
    return MODULE_DIR.getParent().resolve("bin/cri-resmgr");
  }
}
