package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import java.util.Objects;

/**
 * A pod sandbox as the simulated runtime keeps it.
 *
 * @param id the 64-hex-digit sandbox id
 * @param config the config the pod was created with (never altered)
 * @param runtimeHandler the runtime handler asked for
 * @param state ready until stopped
 * @param createdAt creation time in nanoseconds
 * @param ip the pod IP, empty for host-network pods
 * @param overhead last {@code UpdatePodSandboxResources} overhead, else the config's
 * @param resources last {@code UpdatePodSandboxResources} resources, else the config's
 */
record SimPod(
    String id,
    PodSandboxConfig config,
    String runtimeHandler,
    PodSandboxState state,
    long createdAt,
    String ip,
    LinuxContainerResources overhead,
    LinuxContainerResources resources) {

  SimPod {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(runtimeHandler, "runtimeHandler");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(ip, "ip");
    Objects.requireNonNull(overhead, "overhead");
    Objects.requireNonNull(resources, "resources");
  }

  /** A new ready pod. */
  static SimPod ready(String id, PodSandboxConfig config, String handler, long now, String ip) {
    return new SimPod(
        id,
        config,
        handler,
        PodSandboxState.SANDBOX_READY,
        now,
        ip,
        config.getLinux().getOverhead(),
        config.getLinux().getResources());
  }

  boolean isReady() {
    return state == PodSandboxState.SANDBOX_READY;
  }

  /** Returns this pod in state not-ready. */
  SimPod stopped() {
    return new SimPod(
        id,
        config,
        runtimeHandler,
        PodSandboxState.SANDBOX_NOTREADY,
        createdAt,
        ip,
        overhead,
        resources);
  }

  /** Returns this pod with new pod-level resources. */
  SimPod withResources(LinuxContainerResources newOverhead, LinuxContainerResources newResources) {
    return new SimPod(id, config, runtimeHandler, state, createdAt, ip, newOverhead, newResources);
  }

  /** The name containerd would reserve for this pod: metadata must be unique. */
  String uniqueName() {
    var m = config.getMetadata();
    return m.getName() + "_" + m.getNamespace() + "_" + m.getUid() + "_" + m.getAttempt();
  }
}
