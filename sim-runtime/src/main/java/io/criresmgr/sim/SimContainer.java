package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import java.util.Objects;

/**
 * A container as the simulated runtime keeps it.
 *
 * @param id the 64-hex-digit container id
 * @param podId the id of its pod sandbox
 * @param config the config the container was created with (never altered)
 * @param image the image it was created from
 * @param state created, running or exited
 * @param times when it was created, started and finished (nanoseconds, 0 = not yet)
 * @param exitCode the exit code once exited
 * @param reason {@code Completed} or {@code Error} once exited
 * @param resources the linux resources it was created or last updated with
 * @param logPath the pod's log directory joined with the config's log path
 */
record SimContainer(
    String id,
    String podId,
    ContainerConfig config,
    SimImage image,
    ContainerState state,
    Times times,
    int exitCode,
    String reason,
    LinuxContainerResources resources,
    String logPath) {

  /** Creation, start and finish times in nanoseconds; 0 means "not yet". */
  record Times(long createdAt, long startedAt, long finishedAt) {}

  SimContainer {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(podId, "podId");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(times, "times");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(resources, "resources");
    Objects.requireNonNull(logPath, "logPath");
  }

  /** A new container in state created. */
  static SimContainer created(
      String id, String podId, ContainerConfig config, SimImage image, long now, String logPath) {
    return new SimContainer(
        id,
        podId,
        config,
        image,
        ContainerState.CONTAINER_CREATED,
        new Times(now, 0, 0),
        0,
        "",
        config.getLinux().getResources(),
        logPath);
  }

  boolean isRunning() {
    return state == ContainerState.CONTAINER_RUNNING;
  }

  /** Returns this container in state running. */
  SimContainer started(long now) {
    return new SimContainer(
        id,
        podId,
        config,
        image,
        ContainerState.CONTAINER_RUNNING,
        new Times(times.createdAt(), now, 0),
        0,
        "",
        resources,
        logPath);
  }

  /** Returns this container exited with {@code code}. */
  SimContainer exited(long now, int code) {
    return new SimContainer(
        id,
        podId,
        config,
        image,
        ContainerState.CONTAINER_EXITED,
        new Times(times.createdAt(), times.startedAt(), now),
        code,
        code == 0 ? "Completed" : "Error",
        resources,
        logPath);
  }

  /** Returns this container with its linux resources replaced. */
  SimContainer withResources(LinuxContainerResources newResources) {
    return new SimContainer(
        id, podId, config, image, state, times, exitCode, reason, newResources, logPath);
  }

  /** The name containerd would reserve: (name, attempt) is unique within a pod. */
  String uniqueName() {
    return podId + "_" + config.getMetadata().getName() + "_" + config.getMetadata().getAttempt();
  }
}
