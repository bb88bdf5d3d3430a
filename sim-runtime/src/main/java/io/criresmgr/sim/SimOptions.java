package io.criresmgr.sim;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Options of a {@link SimRuntime}.
 *
 * @param clock source of every timestamp the runtime reports
 * @param ids generator of pod and container ids
 * @param images image references that are present ("pre-pulled") from the start
 * @param runtimeName {@code runtime_name} reported by {@code Version}
 * @param runtimeVersion {@code runtime_version} reported by {@code Version}
 * @param hostRoot where the host paths of containers' devices are (their numbers go into the OCI
 *     spec of a verbose {@code ContainerStatus}); {@code /} by default, a fake host in tests
 */
public record SimOptions(
    Clock clock,
    IdGenerator ids,
    List<String> images,
    String runtimeName,
    String runtimeVersion,
    Path hostRoot) {

  /** The runtime name reported by default. */
  public static final String DEFAULT_RUNTIME_NAME = "cri-resmgr-sim-runtime";

  /** Validates and copies the options. */
  public SimOptions {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ids, "ids");
    Objects.requireNonNull(hostRoot, "hostRoot");
    images = List.copyOf(images);
    if (runtimeName.isBlank()) {
      throw new IllegalArgumentException("runtimeName: must not be blank");
    }
    if (runtimeVersion.isBlank()) {
      throw new IllegalArgumentException("runtimeVersion: must not be blank");
    }
  }

  /** System clock, random ids, no images, the default name and the project version. */
  public static SimOptions defaults() {
    return new SimOptions(
        Clock.systemUTC(),
        IdGenerator.random(),
        List.of(),
        DEFAULT_RUNTIME_NAME,
        projectVersion(),
        Path.of("/"));
  }

  /** Returns these options with another clock. */
  public SimOptions withClock(Clock newClock) {
    return new SimOptions(newClock, ids, images, runtimeName, runtimeVersion, hostRoot);
  }

  /** Returns these options with another id generator. */
  public SimOptions withIds(IdGenerator newIds) {
    return new SimOptions(clock, newIds, images, runtimeName, runtimeVersion, hostRoot);
  }

  /** Returns these options with another list of pre-pulled images. */
  public SimOptions withImages(List<String> newImages) {
    return new SimOptions(clock, ids, newImages, runtimeName, runtimeVersion, hostRoot);
  }

  /**
   * Returns these options with another runtime name, e.g. {@code containerd} to pass the proxy's
   * runtime check without {@code --allow-untested-runtimes}.
   */
  public SimOptions withRuntimeName(String newName) {
    return new SimOptions(clock, ids, images, newName, runtimeVersion, hostRoot);
  }

  /** Returns these options with the devices of containers below {@code newRoot}. */
  public SimOptions withHostRoot(Path newRoot) {
    return new SimOptions(clock, ids, images, runtimeName, runtimeVersion, newRoot);
  }

  private static String projectVersion() {
    String version = SimOptions.class.getPackage().getImplementationVersion();
    return version == null ? "0.1.0" : version;
  }
}
