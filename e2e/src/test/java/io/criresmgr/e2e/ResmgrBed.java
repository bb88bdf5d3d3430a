package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This host as a {@link SuiteBed}: the containerd bed (1.6, cgroup v1 hybrid), a temporary work
 * directory, optionally {@code bin/cri-resmgr} in front of the bed, and the checks of where
 * containers run. One per test class: {@link Extension} starts it before the class and stops it
 * after.
 */
final class ResmgrBed implements SuiteBed, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ResmgrBed.class);
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

  @Override
  public String onlineCpus() throws IOException {
    return Files.readString(Path.of("/sys/devices/system/cpu/online"), StandardCharsets.UTF_8)
        .trim();
  }

  @Override
  public CriResmgrProcess startDaemon(String configYaml) throws IOException, InterruptedException {
    proxy = CriResmgrProcess.start(launcher(), criSocket(), workDir.resolve("proxy"), configYaml);
    return proxy;
  }

  @Override
  public CriResmgrProcess restartDaemon(String configYaml)
      throws IOException, InterruptedException {
    require(proxy).close();
    // a daemon that had to be killed leaves its PID file, which would end the wait too early
    Files.deleteIfExists(workDir.resolve("proxy").resolve("cri-resmgr.pid"));
    return startDaemon(configYaml);
  }

  @Override
  public CriResmgrProcess daemon() {
    return require(proxy);
  }

  @Override
  public Path criSocket() {
    return bed.socket();
  }

  @Override
  public E2eNode node() {
    return E2eNode.HOST;
  }

  @Override
  public CgroupVersion cgroupVersion() {
    return CgroupVersion.V1;
  }

  @Override
  public CgroupValues cgroupValues(String parent, String id) throws IOException {
    return CGROUPS.read(parent, id);
  }

  /** Lowers the memory limit only: the kernel refuses one above memory.memsw.limit_in_bytes. */
  @Override
  public void writeByHand(String parent, String id, String cpus, long memoryLimit)
      throws IOException {
    CGROUPS.write("cpuset", parent, id, "cpuset.cpus", cpus);
    CGROUPS.write("memory", parent, id, "memory.limit_in_bytes", Long.toString(memoryLimit));
  }

  @Override
  public Path logDir(String name) throws IOException {
    return Files.createDirectories(workDir.resolve(name).resolve("logs"));
  }

  @Override
  public String readIfExists(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
  }

  /** A pod name unique to this run, ending in {@code suffix}. */
  static String podName(String suffix) {
    return "cri-resmgr-e2e-" + ProcessHandle.current().pid() + "-" + suffix;
  }

  /** Runs pod {@code <name>-sys} in namespace {@code kube-system} on {@code node}. */
  static PinnedPod runKubeSystemPod(CriClient cri, String name, Path logs, E2eNode node) {
    var spec = new WorkflowSpec(name + "-sys", logs, "kube-system", "/" + name + "-sys");
    return PinnedPod.run(cri, spec, node);
  }

  /**
   * Stops the daemon (after logging its warnings and errors, to compare with the VM's) and the bed
   * and deletes the work directory.
   */
  @Override
  public void close() throws IOException {
    if (proxy != null) {
      LOG.info("cri-resmgr's warnings and errors:\n{}", proxy.warningsAndErrors());
      proxy.close();
    }
    try {
      bed.stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping the containerd bed", e);
    }
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

  /**
   * Starts a {@link ResmgrBed} before the class's {@code @BeforeAll} methods (skipping the class as
   * {@link ContainerdBed#startOrSkip} does), resolves {@link SuiteBed} parameters to it, and stops
   * it after the class.
   */
  static final class Extension extends SuiteBedExtension {
    @Override
    SuiteBed create(ExtensionContext context) throws Exception {
      return startOrSkip();
    }
  }
}
