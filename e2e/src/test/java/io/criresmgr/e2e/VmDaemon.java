package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/cri-resmgr} running inside the VM bed in front of the VM's containerd, with a forced
 * configuration. Its state lives in {@code /run/crm/<name>} in the VM (the configuration, {@code
 * cri-resmgr.log}, the PID file and the relay directory with the cache), so a restart with the same
 * name restores what the previous daemon knew. It serves {@link VmBed#GUEST_RELAY_SOCKET}, which
 * tests reach through {@link VmBed#relaySocket()}; or, started by {@link #startNri}, it is the VM's
 * NRI plugin ({@code cri-resmgr --nri}, docs/nri.md) and tests talk to containerd directly. One
 * daemon runs at a time.
 */
final class VmDaemon implements ResmgrDaemon {
  private static final Logger LOG = LoggerFactory.getLogger(VmDaemon.class);
  // a JVM under TCG needs 20-40 s to serve; more on a busy host
  private static final int START_SECONDS = 240;

  private final VmBed bed;
  private final String dir;
  private final long pid;
  private final boolean nri;

  private VmDaemon(VmBed bed, String dir, long pid, boolean nri) {
    this.bed = bed;
    this.dir = dir;
    this.pid = pid;
    this.nri = nri;
  }

  /**
   * Starts the daemon with {@code configYaml} as {@code --force-config} and waits until it serves.
   *
   * @param name names its state directory {@code /run/crm/<name>}
   * @throws IOException with the daemon's log when it exits or does not serve in time
   */
  static VmDaemon start(VmBed bed, String name, String configYaml) throws IOException {
    return start(bed, name, configYaml, false);
  }

  /**
   * Starts the daemon in NRI mode ({@code --nri} on containerd's default NRI socket) with {@code
   * configYaml} as {@code --force-config} and waits until it has registered and synchronized.
   *
   * @param name names its state directory {@code /run/crm/<name>}
   * @throws IOException with the daemon's log when it exits or does not synchronize in time
   */
  static VmDaemon startNri(VmBed bed, String name, String configYaml) throws IOException {
    return start(bed, name, configYaml, true);
  }

  private static VmDaemon start(VmBed bed, String name, String configYaml, boolean nri)
      throws IOException {
    String dir = "/run/crm/" + name;
    Path launcher = ResmgrBed.MODULE_DIR.getParent().resolve("bin/cri-resmgr");
    String config = Base64.getEncoder().encodeToString(configYaml.getBytes(StandardCharsets.UTF_8));
    String socket = VmBed.GUEST_RELAY_SOCKET;
    String script =
        String.join(
            "\n",
            "d=" + VmShell.quote(dir) + "; s=" + VmShell.quote(socket),
            "mkdir -p \"$d\" && cd \"$d\" || exit 1",
            "printf '%s' " + config + " | base64 -d > cri-resmgr.cfg",
            "rm -f cri-resmgr.pid",
            // Only for speed under TCG, behaviour is the same: the classes from the archive
            // VmBed made (ignored if missing), and C1 only (C2 compiles cost more than they save)
            "JAVA_OPTS='-XX:SharedArchiveFile="
                + VmBed.GUEST_CDS_ARCHIVE
                + " -XX:TieredStopAtLevel=1' setsid "
                + VmShell.quote(launcher.toString())
                + (nri
                    ? " --nri"
                    : " --runtime-socket /run/containerd/containerd.sock --relay-socket \"$s\"")
                + " --relay-dir \"$d/relay\" --pid-file \"$d/cri-resmgr.pid\""
                + " --force-config \"$d/cri-resmgr.cfg\" >cri-resmgr.log 2>&1 </dev/null &",
            "launched=$!",
            "end=$(( $(date +%s) + " + START_SECONDS + " ))",
            nri
                ? "until grep -q 'synchronized with NRI' cri-resmgr.log && [ -s cri-resmgr.pid ]; do"
                : "until [ -S \"$s\" ] && [ -s cri-resmgr.pid ]; do",
            "  if ! kill -0 $launched 2>/dev/null; then",
            "    echo \"cri-resmgr exited before serving; its log:\"; cat cri-resmgr.log; exit 1",
            "  fi",
            "  if [ $(date +%s) -ge $end ]; then",
            "    echo \"cri-resmgr did not serve in " + START_SECONDS + " s; its log:\"",
            "    cat cri-resmgr.log; exit 1",
            "  fi",
            "  sleep 0.2",
            "done",
            "cat cri-resmgr.pid");
    long t0 = System.nanoTime();
    String out =
        bed.shell()
            .run(script, Duration.ofSeconds(START_SECONDS + 60))
            .orThrow("starting cri-resmgr in the VM");
    long pid = Long.parseLong(out.trim());
    LOG.info(
        "cri-resmgr pid {} serving in the VM after {} ms",
        pid,
        (System.nanoTime() - t0) / 1_000_000);
    return new VmDaemon(bed, dir, pid, nri);
  }

  /**
   * Where tests send CRI, on this host: the relay socket ({@link VmBed#relaySocket()}); in NRI mode
   * containerd's own CRI socket ({@link VmBed#criSocket()}), as kubelet talks to containerd
   * directly there and the daemon only sees what containerd hands its plugins (docs/nri.md).
   */
  @Override
  public Path relaySocket() {
    return nri ? bed.criSocket() : bed.relaySocket();
  }

  /** The relay directory in the VM, {@code /run/crm/<name>/relay}. */
  @Override
  public Path relayDir() {
    return Path.of(dir, "relay");
  }

  /** What the daemon has logged so far. */
  @Override
  public String log() throws IOException {
    return bed.shell().check("cat " + VmShell.quote(dir + "/cri-resmgr.log"));
  }

  /** Stops this daemon and starts it again with the same state directory. */
  VmDaemon restart(String configYaml) throws IOException {
    close();
    return start(bed, dir.substring("/run/crm/".length()), configYaml, nri);
  }

  /** Kills this daemon with SIGKILL (a crash: no shutdown, no goodbye to the runtime). */
  void kill() throws IOException {
    bed.shell()
        .check(
            String.join(
                "\n",
                "p=" + pid,
                "kill -KILL $p 2>/dev/null || exit 0",
                "for i in $(seq 1 100); do kill -0 $p 2>/dev/null || exit 0; sleep 0.1; done",
                "echo \"pid $p survived SIGKILL\" >&2; exit 1"));
  }

  /**
   * Stops this daemon with SIGSTOP and returns once the kernel shows it stopped: its sockets stay
   * open, but nothing it was sent gets an answer (a hung daemon).
   */
  void suspend() throws IOException {
    signal("STOP", "T");
  }

  /** Lets a {@link #suspend suspended} daemon run again (SIGCONT). */
  void resume() throws IOException {
    signal("CONT", "[^T]");
  }

  /**
   * Sends {@code SIG<name>} and waits until {@code /proc/<pid>/stat}'s state matches {@code state}.
   */
  private void signal(String name, String state) throws IOException {
    bed.shell()
        .check(
            String.join(
                "\n",
                "p=" + pid,
                "kill -" + name + " $p || exit 1",
                "for i in $(seq 1 100); do",
                "  grep -qE '^[0-9]+ \\(.*\\) " + state + " ' /proc/$p/stat && exit 0; sleep 0.1",
                "done",
                "echo \"pid $p not in state "
                    + state
                    + " after SIG"
                    + name
                    + ": $(cat /proc/$p/stat)\" >&2",
                "exit 1"));
  }

  /** Sends SIGTERM and waits for the exit, SIGKILL after 20 s. */
  @Override
  public void close() throws IOException {
    String out =
        bed.shell()
            .check(
                String.join(
                    "\n",
                    "p=" + pid,
                    "kill -TERM $p 2>/dev/null || exit 0",
                    "for i in $(seq 1 100); do kill -0 $p 2>/dev/null || exit 0; sleep 0.2; done",
                    "kill -KILL $p; echo killed"));
    if (out.contains("killed")) {
      LOG.warn("cri-resmgr pid {} in the VM ignored SIGTERM for 20 s and was killed", pid);
    }
  }
}
