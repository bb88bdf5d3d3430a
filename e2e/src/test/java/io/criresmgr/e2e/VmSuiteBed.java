package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The VM bed as a {@link SuiteBed}: containerd (1.7 by default) and pure cgroup v2 in the VM that
 * {@link VmBed} boots once per run, the daemon inside the VM ({@link VmDaemon}, state in {@code
 * /run/crm/<class>}), files read and written through {@link VmShell}. The daemon is a CRI proxy, or
 * with {@link NriExtension} containerd's NRI plugin ({@link VmDaemon#startNri}), and then the
 * suites' CRI calls go to containerd directly ({@link VmDaemon#relaySocket()}). One per test class:
 * {@link Extension} makes it and stops its daemon after the class; the VM stays up for the next
 * class.
 */
final class VmSuiteBed implements SuiteBed, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VmSuiteBed.class);
  private static final String[] FILES = {"cpuset.cpus", "memory.max", "cpu.weight"};

  private final VmBed vm;
  private final VmNode node;
  private final String name;
  private final boolean nri;
  private @Nullable VmDaemon daemon;

  /**
   * A bed whose daemon, state in {@code /run/crm/<name>}, is a CRI proxy or, with {@code nri},
   * containerd's NRI plugin.
   */
  VmSuiteBed(VmBed vm, String name, boolean nri) {
    this.vm = Objects.requireNonNull(vm, "vm");
    this.node = new VmNode(vm.shell());
    this.name = Objects.requireNonNull(name, "name");
    this.nri = nri;
  }

  @Override
  public Path criSocket() {
    return vm.criSocket();
  }

  @Override
  public VmDaemon startDaemon(String configYaml) throws IOException {
    daemon = nri ? VmDaemon.startNri(vm, name, configYaml) : VmDaemon.start(vm, name, configYaml);
    return daemon;
  }

  @Override
  public VmDaemon restartDaemon(String configYaml) throws IOException {
    VmDaemon restarted = ResmgrBed.require(daemon).restart(configYaml);
    daemon = restarted;
    return restarted;
  }

  @Override
  public VmDaemon daemon() {
    return ResmgrBed.require(daemon);
  }

  @Override
  public VmNode node() {
    return node;
  }

  @Override
  public CgroupVersion cgroupVersion() {
    return CgroupVersion.V2;
  }

  @Override
  public CgroupValues cgroupValues(String parent, String id) throws IOException {
    Map<String, String> files = node.containerFiles(parent, id, FILES);
    return new CgroupValues(
        files.get("cpuset.cpus"), files.get("memory.max"), files.get("cpu.weight"));
  }

  @Override
  public void writeByHand(String parent, String id, String cpus, long memoryLimit)
      throws IOException {
    String dir = VmNode.containerDir(parent, id);
    vm.shell().write(dir + "/cpuset.cpus", cpus);
    vm.shell().write(dir + "/memory.max", Long.toString(memoryLimit));
  }

  @Override
  public String onlineCpus() throws IOException {
    return vm.shell().read("/sys/devices/system/cpu/online");
  }

  /** Below {@code /var/log/pods}, where kubelet keeps them, on the VM's own tmpfs overlay. */
  @Override
  public Path logDir(String podName) throws IOException {
    String dir = "/var/log/pods/" + podName;
    vm.shell().check("mkdir -p " + VmShell.quote(dir));
    return Path.of(dir);
  }

  @Override
  public String readIfExists(Path file) throws IOException {
    String path = VmShell.quote(file.toString());
    return vm.shell()
        .run("[ ! -e " + path + " ] || cat " + path, Duration.ofMinutes(1))
        .orThrow("reading " + file);
  }

  /**
   * Stops the daemon, if one was started, after logging its warnings and errors (what differs from
   * the host's runtime shows there first); the VM stays up for the next class.
   */
  @Override
  public void close() throws IOException {
    if (daemon != null) {
      LOG.info(
          "{}: cri-resmgr's warnings and errors in the VM:\n{}", name, daemon.warningsAndErrors());
      daemon.close();
    }
  }

  /**
   * Makes a {@link VmSuiteBed} named after the test class before its {@code @BeforeAll} methods,
   * resolves {@link SuiteBed} parameters to it, and stops its daemon after the class. Register it
   * after {@link VmBed.Extension}, which boots the VM (or skips the class).
   */
  static final class Extension extends SuiteBedExtension {
    @Override
    SuiteBed create(ExtensionContext context) {
      String name = context.getRequiredTestClass().getSimpleName();
      return new VmSuiteBed(VmBed.Extension.bed(context), name, false);
    }
  }

  /**
   * {@link Extension} with the daemon in NRI mode ({@code cri-resmgr --nri}, docs/nri.md): the
   * suites create their containers through containerd's CRI socket, as kubelet does in NRI mode.
   * Register it after {@link VmBed.Extension}.
   */
  static final class NriExtension extends SuiteBedExtension {
    @Override
    SuiteBed create(ExtensionContext context) {
      String name = context.getRequiredTestClass().getSimpleName();
      return new VmSuiteBed(VmBed.Extension.bed(context), name, true);
    }
  }
}
