package io.criresmgr.simulator;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** One step of a scenario; {@link #line()} is where it starts in the file. */
sealed interface Step {
  /** The line of the step in the scenario file. */
  int line();

  /** The step's key in the file, e.g. {@code create}. */
  String kind();

  /** {@code create}: kubelet runs a pod and starts its init containers, then its containers. */
  record Create(int line, PodVars vars) implements Step {
    @Override
    public String kind() {
      return "create";
    }
  }

  /** {@code delete}: kubelet stops and removes the pods; {@code all} for every pod. */
  record Delete(int line, List<String> pods) implements Step {
    /** The pod list meaning every pod. */
    static final String ALL = "all";

    /** Copies the list. */
    public Delete {
      pods = List.copyOf(pods);
    }

    @Override
    public String kind() {
      return "delete";
    }
  }

  /** {@code verify}: expectations on the placement, polled until they hold or time out. */
  record Check(int line, Verify verify) implements Step {
    @Override
    public String kind() {
      return "verify";
    }
  }

  /**
   * {@code expect-error}: the inner create, restart or reconfigure step must fail with a matching
   * message.
   */
  record ExpectError(int line, Step step, Pattern message) implements Step {
    @Override
    public String kind() {
      return "expect-error";
    }
  }

  /** {@code restart}: the daemon stops and starts again (with a new config, if given). */
  record Restart(int line, Optional<String> config) implements Step {
    @Override
    public String kind() {
      return "restart";
    }
  }

  /** {@code reconfigure}: the running daemon takes a new configuration, as a reload does. */
  record Reconfigure(int line, String config) implements Step {
    @Override
    public String kind() {
      return "reconfigure";
    }
  }

  /**
   * {@code metrics}: lines of the daemon's {@code /metrics} page; each of {@code has} matches some
   * line, none of {@code lacks} matches any. Polled until they hold or {@code timeout} passes.
   */
  record Metrics(int line, List<Pattern> has, List<Pattern> lacks, Duration timeout)
      implements Step {
    /** Copies the lists. */
    public Metrics {
      has = List.copyOf(has);
      lacks = List.copyOf(lacks);
    }

    @Override
    public String kind() {
      return "metrics";
    }
  }

  /** {@code exit}: a container's process exits; kubelet notices and restarts it if asked. */
  record Exit(int line, String container, int code, boolean restart) implements Step {
    @Override
    public String kind() {
      return "exit";
    }
  }

  /** {@code wait}: time passes (for policy timers). */
  record Wait(int line, Duration duration) implements Step {
    @Override
    public String kind() {
      return "wait";
    }
  }

  /** {@code expect-log} / {@code expect-no-log}: a line of the daemon's log matches, or none. */
  record ExpectLog(int line, Pattern pattern, boolean present, Duration timeout) implements Step {
    @Override
    public String kind() {
      return present ? "expect-log" : "expect-no-log";
    }
  }

  /** {@code set}: new defaults for the variables of later {@code create} steps. */
  record Defaults(int line, PodVars vars) implements Step {
    @Override
    public String kind() {
      return "set";
    }
  }

  /** {@code reset-counters}: the next unnamed pod is {@code pod0} again. */
  record ResetCounters(int line) implements Step {
    @Override
    public String kind() {
      return "reset-counters";
    }
  }

  /**
   * {@code random}: seeded random creates, deletes and container exits of the model pods, checking
   * the invariants after every operation.
   *
   * @param line line in the file
   * @param seed random seed
   * @param operations number of operations
   * @param pods model pods by name
   * @param maxCpuMilli total CPU (limit, else request) of live pods outside kube-system stays below
   *     this (0: no limit)
   * @param maxReservedMilli the same for kube-system pods (0: no limit)
   * @param maxMemoryBytes total memory (limit, else request) of live pods stays below this (0: no
   *     limit)
   * @param exclusive check that whole-CPU Guaranteed containers outside kube-system hold that many
   *     CPUs no other container holds
   * @param invariants further checks after every operation
   */
  record Random(
      int line,
      long seed,
      int operations,
      Map<String, PodVars> pods,
      long maxCpuMilli,
      long maxReservedMilli,
      long maxMemoryBytes,
      boolean exclusive,
      Optional<Verify> invariants)
      implements Step {
    /** Copies the map. */
    public Random {
      pods = Map.copyOf(pods);
    }

    @Override
    public String kind() {
      return "random";
    }
  }
}
