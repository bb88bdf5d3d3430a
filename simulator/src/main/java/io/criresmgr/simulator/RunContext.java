package io.criresmgr.simulator;

import io.criresmgr.simulator.PodVars.Var;
import java.util.Objects;

/**
 * The state of one scenario run that steps share: the daemon and runtime, kubelet, the placement
 * reader, the captured log, the current defaults of the pod variables and the pod name counter.
 * Confined to the thread running the scenario.
 */
final class RunContext {
  final DaemonControl daemon;
  final Kubelet kubelet;
  final Observer observer;
  final LogCapture logs;
  final ScenarioRunner.Listener listener;
  String config;
  private PodVars defaults = PodVars.DEFAULTS;
  private int podCounter;

  RunContext(
      DaemonControl daemon,
      Kubelet kubelet,
      Observer observer,
      LogCapture logs,
      ScenarioRunner.Listener listener,
      String config) {
    this.daemon = Objects.requireNonNull(daemon, "daemon");
    this.kubelet = Objects.requireNonNull(kubelet, "kubelet");
    this.observer = Objects.requireNonNull(observer, "observer");
    this.logs = Objects.requireNonNull(logs, "logs");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.config = Objects.requireNonNull(config, "config");
  }

  /** Makes {@code vars} the defaults of later creates (on top of the current ones). */
  void setDefaults(PodVars vars) {
    defaults = defaults.then(vars);
  }

  /** The next unnamed pod is {@code pod0}. */
  void resetCounters() {
    podCounter = 0;
  }

  /**
   * The pod a create step with {@code vars} makes. An unnamed pod takes the counter's name; the
   * counter advances only when {@code commit} says the creation succeeded (as in the reference,
   * where a failing create in a subshell does not advance it).
   */
  PodSpec resolve(PodVars vars) {
    PodVars all = defaults.then(vars);
    String name = all.get(Var.NAME).orElse("pod" + podCounter);
    return PodSpec.resolve(all, name);
  }

  /** Advances the counter after an unnamed pod was created. */
  void commit(PodVars vars) {
    if (defaults.then(vars).get(Var.NAME).isEmpty()) {
      podCounter++;
    }
  }
}
