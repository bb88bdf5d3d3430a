package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pure cgroup v2 node: a QEMU VM started by {@code e2e/vm/start-vm.sh} with containerd (1.7 by
 * default, {@code -De2e.vm.containerd=1.6} for the host's) and runc inside, its CRI socket on this
 * host, and a command channel ({@link #shell()}). One VM serves the whole test run: {@link
 * Extension} boots it for the first class that needs it and JUnit closes it after the last.
 *
 * <p>The daemon under test runs inside the VM ({@link VmDaemon}), so that its controllers write the
 * VM's cgroup files; its relay socket is forwarded to {@link #relaySocket()} on this host.
 */
final class VmBed implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VmBed.class);
  // the first start downloads the kernel and containerd 1.7 from Debian's archive
  private static final Duration START_TIMEOUT = Duration.ofMinutes(15);
  private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

  /** The daemon's class data sharing archive inside the VM, see {@link VmDaemon}. */
  static final String GUEST_CDS_ARCHIVE = "/run/crm/cri-resmgr.jsa";

  /** Where the daemon serves CRI inside the VM; forwarded once to {@link #relaySocket()}. */
  static final String GUEST_RELAY_SOCKET = "/run/crm/cri-resmgr.sock";

  private final Path vmDir;
  private final Path logDir;
  private final Map<String, String> env;
  private final Path criSocket;
  private final Path relaySocket;
  private final VmShell shell;
  private final String containerd;

  private VmBed(
      Path vmDir,
      Path logDir,
      Map<String, String> env,
      Path criSocket,
      Path relaySocket,
      VmShell shell,
      String containerd) {
    this.vmDir = vmDir;
    this.logDir = logDir;
    this.env = env;
    this.criSocket = criSocket;
    this.relaySocket = relaySocket;
    this.shell = shell;
    this.containerd = containerd;
  }

  /**
   * Boots a fresh VM in {@code vmDir} (stopping one a crashed run left there first) and forwards
   * the daemon's relay socket.
   */
  static VmBed start(Path vmDir, Path logDir, String containerd)
      throws IOException, InterruptedException, ContainerdBed.BedUnavailableException {
    Path scripts = scriptDir();
    // NRI on (containerd 2.x's default): without a plugin connected it changes nothing
    Map<String, String> env =
        Map.of(
            "VM_DIR",
            vmDir.toString(),
            "VM_CONTAINERD",
            containerd,
            "VM_NRI",
            System.getProperty("e2e.vm.nri", "1"));
    new BedScript(scripts.resolve("stop-vm.sh"), logDir, env).run(STOP_TIMEOUT);
    long t0 = System.nanoTime();
    BedScript.Result r =
        new BedScript(scripts.resolve("start-vm.sh"), logDir, env).run(START_TIMEOUT);
    String socket = r.values().getOrDefault("CONTAINERD_SOCKET", "");
    if (r.exitCode() != 0 || socket.isEmpty()) {
      throw new ContainerdBed.BedUnavailableException(
          "start-vm.sh exited with " + r.exitCode() + ": " + tail(r.stderr()));
    }
    long booted = (System.nanoTime() - t0) / 1_000_000;
    Path relay = vmDir.resolve("relay.sock");
    BedScript.Result fwd =
        new BedScript(scripts.resolve("vm-forward.sh"), logDir, env)
            .withArgs(GUEST_RELAY_SOCKET, relay.toString())
            .run(STOP_TIMEOUT);
    if (fwd.exitCode() != 0) {
      throw new IOException("vm-forward.sh exited with " + fwd.exitCode() + ": " + fwd.stderr());
    }
    VmShell shell = new VmShell(Integer.parseInt(ports(vmDir).getProperty("CMD_PORT", "0")));
    shareClassArchive(scripts, vmDir, logDir, Path.of(socket), shell);
    VmBed bed = new VmBed(vmDir, logDir, env, Path.of(socket), relay, shell, containerd);
    LOG.info(
        "VM bed up in {} ms: containerd {} at {}, {}",
        booted,
        r.values().getOrDefault("VM_CONTAINERD", "?"),
        socket,
        shell.check("uname -r; cat /sys/fs/cgroup/cgroup.subtree_control").replace('\n', ' '));
    return bed;
  }

  /**
   * Makes a class data sharing archive of the daemon on this host ({@code e2e/vm/cds-archive.sh},
   * about 20 s) and copies it into the VM as {@link #GUEST_CDS_ARCHIVE}: under TCG it halves a
   * daemon's start. Without it (a failure is only logged) daemons start as usual, only slower.
   */
  private static void shareClassArchive(
      Path scripts, Path vmDir, Path logDir, Path criSocket, VmShell shell)
      throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    BedScript.Result r =
        new BedScript(scripts.resolve("cds-archive.sh"), logDir)
            .withArgs(criSocket.toString(), vmDir.resolve("cds").toString())
            .run(STOP_TIMEOUT);
    String archive = r.values().getOrDefault("CDS_ARCHIVE", "");
    if (r.exitCode() != 0 || archive.isEmpty()) {
      LOG.warn("no class data sharing archive for the VM's daemons: {}", tail(r.stderr()));
      return;
    }
    // written after the VM booted: only the uncached view of the host shows it
    shell.check(
        "mkdir -p /run/crm && cp /run/crivm/hostlive"
            + VmShell.quote(archive)
            + " "
            + GUEST_CDS_ARCHIVE);
    LOG.info(
        "class data sharing archive in the VM after {} ms", (System.nanoTime() - t0) / 1_000_000);
  }

  private static Properties ports(Path vmDir) throws IOException {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(vmDir.resolve("ports"), StandardCharsets.UTF_8)) {
      p.load(in);
    }
    return p;
  }

  /** containerd's CRI socket, on this host. */
  Path criSocket() {
    return criSocket;
  }

  /** The daemon's relay socket ({@link #GUEST_RELAY_SOCKET} in the VM), on this host. */
  Path relaySocket() {
    return relaySocket;
  }

  /**
   * Forwards containerd's NRI socket ({@code /var/run/nri/nri.sock} in the VM, containerd 1.7 with
   * {@code -De2e.vm.nri=1}, the default) to a new socket on this host and returns it.
   */
  Path forwardNriSocket(String name) throws IOException, InterruptedException {
    Path host = vmDir.resolve(name + ".sock");
    try {
      BedScript.Result r =
          new BedScript(scriptDir().resolve("vm-forward.sh"), logDir, env)
              .withArgs("/var/run/nri/nri.sock", host.toString())
              .run(STOP_TIMEOUT);
      if (r.exitCode() != 0) {
        throw new IOException("vm-forward.sh exited with " + r.exitCode() + ": " + r.stderr());
      }
    } catch (ContainerdBed.BedUnavailableException e) {
      throw new IOException(e.getMessage(), e);
    }
    return host;
  }

  /** Scripts as root in the VM. */
  VmShell shell() {
    return shell;
  }

  /** {@code 1.7} or {@code 1.6}. */
  String containerd() {
    return containerd;
  }

  /** The guest's console log (for failure reports). */
  Path consoleLog() {
    return vmDir.resolve("console.log");
  }

  /** Stops the VM and what runs with it on this host (by PID file). */
  @Override
  public void close() throws IOException {
    try {
      BedScript.Result r =
          new BedScript(scriptDir().resolve("stop-vm.sh"), logDir, env).run(STOP_TIMEOUT);
      if (r.exitCode() != 0) {
        LOG.warn("stop-vm.sh exited with {}: {}", r.exitCode(), tail(r.stderr()));
      }
    } catch (ContainerdBed.BedUnavailableException e) {
      throw new IOException(e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping the VM", e);
    }
  }

  /** The repository's {@code e2e/vm} directory. */
  static Path scriptDir() throws ContainerdBed.BedUnavailableException {
    Path dir = ResmgrBed.MODULE_DIR.resolve("vm");
    if (!Files.isRegularFile(dir.resolve("start-vm.sh"))) {
      throw new ContainerdBed.BedUnavailableException("no start-vm.sh in " + dir);
    }
    return dir;
  }

  private static String tail(String text) {
    return text.length() <= 3000 ? text : "..." + text.substring(text.length() - 3000);
  }

  /**
   * Boots the VM once per test run for the classes that use it, or skips them (failing where e2e is
   * required, see {@link E2eRequirement}) when not root, QEMU is missing or the VM cannot boot. The
   * VM is closed with the root context, after the last class.
   */
  static final class Extension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(VmBed.class);

    @Override
    public void beforeAll(ExtensionContext context) {
      Outcome outcome =
          context
              .getRoot()
              .getStore(NAMESPACE)
              .computeIfAbsent(Outcome.class, k -> Outcome.boot(), Outcome.class);
      if (outcome.bed == null) {
        E2eRequirement.unavailable(outcome.reason);
      }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == VmBed.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return bed(context);
    }

    /** The bed of the run; only valid after {@link #beforeAll}. */
    static VmBed bed(ExtensionContext context) {
      Outcome outcome = context.getRoot().getStore(NAMESPACE).get(Outcome.class, Outcome.class);
      if (outcome == null || outcome.bed == null) {
        throw new IllegalStateException("the VM bed is not up");
      }
      return outcome.bed;
    }
  }

  /** A booted VM, or why there is none (kept so that later classes do not boot again). */
  static final class Outcome implements AutoCloseable {
    final @Nullable VmBed bed;
    final String reason;

    private Outcome(@Nullable VmBed bed, String reason) {
      this.bed = bed;
      this.reason = reason;
    }

    static Outcome boot() {
      try {
        if (!Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))) {
          return new Outcome(null, "not root; QEMU's virtiofsd and containerd need root");
        }
        String containerd = System.getProperty("e2e.vm.containerd", "1.7");
        Path vmDir = Path.of(System.getProperty("e2e.vm.dir", "/tmp/cri-resmgr-vm-e2e"));
        return new Outcome(
            start(vmDir, ResmgrBed.MODULE_DIR.resolve("target/e2e-vm"), containerd), "");
      } catch (ContainerdBed.BedUnavailableException | IOException e) {
        return new Outcome(null, "the VM bed did not start: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Outcome(null, "interrupted while the VM booted");
      }
    }

    @Override
    public void close() throws IOException {
      if (bed != null) {
        bed.close();
      }
    }
  }
}
