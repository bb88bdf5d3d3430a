package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerEventType;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.NamespaceMode;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Pods and containers of the simulated runtime. Every method holds the one lock of this object;
 * container state changes are published to the {@link ContainerEventBus}. Errors are thrown as
 * {@link io.grpc.StatusRuntimeException} with the codes containerd uses (see
 * docs/simulated-runtime.md for the deviations).
 */
final class SimState {
  /** Exit code of a container killed without grace period (SIGKILL). */
  static final int KILLED_EXIT_CODE = 137;

  private final Clock clock;
  private final IdGenerator ids;
  private final ImageStore images;
  private final ContainerEventBus events;
  private final Map<String, SimPod> pods = new LinkedHashMap<>();
  private final Map<String, SimContainer> containers = new LinkedHashMap<>();
  private int podCount;
  private long lastCreatedAt;

  SimState(Clock clock, IdGenerator ids, ImageStore images, ContainerEventBus events) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ids = Objects.requireNonNull(ids, "ids");
    this.images = Objects.requireNonNull(images, "images");
    this.events = Objects.requireNonNull(events, "events");
  }

  long now() {
    return Timestamps.nanos(clock);
  }

  synchronized String runPod(PodSandboxConfig config, String handler) {
    if (!config.hasMetadata()) {
      throw SimErrors.invalidArgument("sandbox config must include metadata");
    }
    SimPod pod = SimPod.ready(ids.next(), config, handler, creationTime(), nextIp(config));
    for (SimPod other : pods.values()) {
      if (other.uniqueName().equals(pod.uniqueName())) {
        throw SimErrors.alreadyExists(
            "failed to reserve sandbox name \""
                + pod.uniqueName()
                + "\": name is reserved for "
                + other.id());
      }
    }
    pods.put(pod.id(), pod);
    return pod.id();
  }

  synchronized void stopPod(String id) {
    SimPod pod = IdIndex.require(pods, id, "sandbox");
    for (SimContainer c : containersOf(pod.id())) {
      kill(pod, c);
    }
    pods.put(pod.id(), pod.stopped());
  }

  synchronized void removePod(String id) {
    SimPod pod = IdIndex.find(pods, id, "sandbox").orElse(null);
    if (pod == null) {
      return; // idempotent, like containerd
    }
    for (SimContainer c : containersOf(pod.id())) {
      delete(pod, c);
    }
    pods.remove(pod.id());
  }

  synchronized void updatePodResources(
      String id, LinuxContainerResources overhead, LinuxContainerResources resources) {
    SimPod pod = IdIndex.require(pods, id, "sandbox");
    pods.put(pod.id(), pod.withResources(overhead, resources));
  }

  synchronized SimPod pod(String id) {
    return IdIndex.require(pods, id, "sandbox");
  }

  synchronized List<SimPod> pods() {
    return List.copyOf(pods.values());
  }

  synchronized String createContainer(CreateContainerRequest request) {
    ContainerConfig config = request.getConfig();
    if (!config.hasMetadata()) {
      throw SimErrors.invalidArgument("container config must include metadata");
    }
    if (config.getImage().getImage().isEmpty()) {
      throw SimErrors.invalidArgument("container config must include an image");
    }
    SimPod pod = IdIndex.require(pods, request.getPodSandboxId(), "sandbox");
    if (!pod.isReady()) {
      throw SimErrors.failedPrecondition("sandbox \"" + pod.id() + "\" is not ready");
    }
    SimImage image = images.require(config.getImage().getImage());
    SimContainer c =
        SimContainer.created(
            ids.next(), pod.id(), config, image, creationTime(), logPath(pod, config));
    reserveName(c);
    containers.put(c.id(), c);
    events.publish(ContainerEventType.CONTAINER_CREATED_EVENT, pod, c, now());
    return c.id();
  }

  synchronized void startContainer(String id) {
    SimContainer c = IdIndex.require(containers, id, "container");
    if (c.state() != ContainerState.CONTAINER_CREATED) {
      throw SimErrors.failedPrecondition(
          "container \"" + c.id() + "\" is in " + c.state() + " state, cannot start it");
    }
    SimPod pod = podOf(c);
    if (!pod.isReady()) {
      throw SimErrors.failedPrecondition(
          "sandbox \"" + pod.id() + "\" of container \"" + c.id() + "\" is not ready");
    }
    SimContainer started = c.started(now());
    containers.put(c.id(), started);
    events.publish(ContainerEventType.CONTAINER_STARTED_EVENT, pod, started, now());
  }

  /** Stops a running container: exit 0 with a grace period, 137 (killed) without one. */
  synchronized void stopContainer(String id, long timeoutSeconds) {
    SimContainer c = IdIndex.require(containers, id, "container");
    if (c.isRunning()) {
      exit(podOf(c), c, timeoutSeconds > 0 ? 0 : KILLED_EXIT_CODE);
    }
  }

  /**
   * Makes a running container exit on its own, as a crash or a finished command would.
   *
   * @throws io.grpc.StatusRuntimeException {@code NOT_FOUND} for an unknown id, {@code
   *     FAILED_PRECONDITION} if the container is not running
   */
  synchronized void exitContainer(String id, int exitCode) {
    SimContainer c = IdIndex.require(containers, id, "container");
    if (!c.isRunning()) {
      throw SimErrors.failedPrecondition(
          "container \"" + c.id() + "\" is in " + c.state() + " state, cannot exit");
    }
    exit(podOf(c), c, exitCode);
  }

  synchronized void removeContainer(String id) {
    SimContainer c = IdIndex.find(containers, id, "container").orElse(null);
    if (c != null) {
      delete(podOf(c), c);
    }
  }

  synchronized void updateResources(String id, LinuxContainerResources resources) {
    SimContainer c = IdIndex.require(containers, id, "container");
    if (c.state() == ContainerState.CONTAINER_EXITED) {
      throw SimErrors.failedPrecondition(
          "container \"" + c.id() + "\" is in " + c.state() + " state, cannot update resources");
    }
    containers.put(c.id(), c.withResources(resources));
  }

  synchronized SimContainer container(String id) {
    return IdIndex.require(containers, id, "container");
  }

  /** The container, which must be running (exec, attach, log reopening). */
  synchronized SimContainer runningContainer(String id) {
    SimContainer c = container(id);
    if (!c.isRunning()) {
      throw SimErrors.failedPrecondition(
          "container \"" + c.id() + "\" is in " + c.state() + " state, not running");
    }
    return c;
  }

  synchronized List<SimContainer> containers() {
    return List.copyOf(containers.values());
  }

  synchronized List<SimContainer> containersOf(String podId) {
    return containers.values().stream().filter(c -> c.podId().equals(podId)).toList();
  }

  /**
   * The creation time of a new pod or container: the clock's time, but strictly later than the
   * previous creation, so that sorting by {@code created_at} gives the creation order even when the
   * clock stands still or is coarse.
   */
  private long creationTime() {
    lastCreatedAt = Math.max(now(), lastCreatedAt + 1);
    return lastCreatedAt;
  }

  private void kill(SimPod pod, SimContainer c) {
    if (c.isRunning()) {
      exit(pod, c, KILLED_EXIT_CODE);
    }
  }

  private void exit(SimPod pod, SimContainer c, int exitCode) {
    SimContainer exited = c.exited(now(), exitCode);
    containers.put(c.id(), exited);
    events.publish(ContainerEventType.CONTAINER_STOPPED_EVENT, pod, exited, now());
  }

  /** Force-removes: a running container is killed first, as containerd does. */
  private void delete(SimPod pod, SimContainer c) {
    kill(pod, c);
    SimContainer removed = Objects.requireNonNullElse(containers.remove(c.id()), c);
    events.publish(ContainerEventType.CONTAINER_DELETED_EVENT, pod, removed, now());
  }

  /** A container's pod: a container is created in a pod and removed before it. */
  private SimPod podOf(SimContainer c) {
    SimPod pod = pods.get(c.podId());
    if (pod == null) {
      throw new IllegalStateException("container " + c.id() + " has no pod " + c.podId());
    }
    return pod;
  }

  private void reserveName(SimContainer c) {
    for (SimContainer other : containers.values()) {
      if (other.uniqueName().equals(c.uniqueName())) {
        throw SimErrors.alreadyExists(
            "failed to reserve container name \""
                + c.uniqueName()
                + "\": name is reserved for "
                + other.id());
      }
    }
  }

  private String nextIp(PodSandboxConfig config) {
    var network = config.getLinux().getSecurityContext().getNamespaceOptions().getNetwork();
    if (network == NamespaceMode.NODE) {
      return "";
    }
    int n = podCount++;
    return "10.88." + (n / 250) % 256 + "." + (n % 250 + 2);
  }

  private static String logPath(SimPod pod, ContainerConfig config) {
    String dir = pod.config().getLogDirectory();
    if (dir.isEmpty() || config.getLogPath().isEmpty()) {
      return "";
    }
    return Path.of(dir, config.getLogPath()).toString();
  }
}
