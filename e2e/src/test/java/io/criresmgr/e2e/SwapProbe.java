package io.criresmgr.e2e;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures, inside the VM, how much of a {@code dd if=/dev/zero bs=80M count=1 | sleep inf}
 * container's memory went to swap: waits (with a deadline, polling in the VM) until the {@code dd}
 * of every given container cgroup has filled its buffer and blocks writing into the pipe nobody
 * reads ({@code wchan} {@code pipe_write}), then reads {@code VmSwap} of each {@code dd} from
 * {@code /proc/<pid>/status}. The {@code dd} is found through the cgroup's {@code cgroup.procs}.
 */
final class SwapProbe {
  /** The container command: an 80 MiB buffer that stays allocated while dd blocks. */
  static final String DD = "dd if=/dev/zero bs=80M count=1 | sleep inf";

  private static final int DEADLINE_SECONDS = 180;

  private SwapProbe() {}

  /** Container cgroup directory to the VmSwap of its dd in kB, in the order given. */
  static Map<String, Long> swapKb(VmShell shell, List<String> cgroupDirs) throws IOException {
    String out =
        shell
            .run(script(cgroupDirs), Duration.ofSeconds(DEADLINE_SECONDS + 30))
            .orThrow("waiting for the dd processes to block on their pipes");
    Map<String, Long> swap = new LinkedHashMap<>();
    for (String line : out.strip().lines().toList()) {
      String[] f = line.trim().split("\\s+", -1);
      if (f.length == 3 && f[0].equals("swap")) {
        swap.put(f[1], Long.parseLong(f[2]));
      }
    }
    if (swap.size() != cgroupDirs.size()) {
      throw new IOException("the swap probe reported " + swap + ":\n" + out);
    }
    return swap;
  }

  private static String script(List<String> dirs) {
    StringBuilder quoted = new StringBuilder();
    dirs.forEach(d -> quoted.append(' ').append(VmShell.quote(d)));
    return String.join(
        "\n",
        "cgs=(" + quoted + " )",
        "ddpid() { for p in $(cat \"$1/cgroup.procs\"); do",
        "  [ \"$(cat /proc/$p/comm 2>/dev/null)\" = dd ] && echo $p; done; }",
        "blocked() { local p; p=$(ddpid \"$1\");",
        "  [ -n \"$p\" ] && [ \"$(cat /proc/$p/wchan 2>/dev/null)\" = pipe_write ]; }",
        "end=$(( $(date +%s) + " + DEADLINE_SECONDS + " ))",
        "while :; do",
        "  n=0; for cg in \"${cgs[@]}\"; do blocked \"$cg\" && n=$((n + 1)); done",
        "  [ $n = ${#cgs[@]} ] && break",
        "  if [ $(date +%s) -ge $end ]; then",
        "    echo \"only $n of ${#cgs[@]} dd processes blocked on their pipe in "
            + DEADLINE_SECONDS
            + " s\"",
        "    for cg in \"${cgs[@]}\"; do p=$(ddpid \"$cg\");",
        "      echo \"$cg: dd ${p:-none} wchan $(cat /proc/$p/wchan 2>/dev/null)\"; done",
        "    exit 1",
        "  fi",
        "  sleep 0.5",
        "done",
        "for cg in \"${cgs[@]}\"; do p=$(ddpid \"$cg\")",
        "  echo \"swap $cg $(awk '/^VmSwap:/ {print $2}' /proc/$p/status)\"",
        "done");
  }
}
