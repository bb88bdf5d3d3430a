package io.criresmgr.proxy;

import io.criresmgr.nri.NriPluginOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The daemon's command-line options after parsing (same names and defaults as cri-resmgr).
 *
 * @param runtimeSocket socket of the real runtime service ({@code --runtime-socket})
 * @param imageSocket socket of the image service; equals {@code runtimeSocket} for "default"
 * @param relaySocket socket the proxy serves ({@code --relay-socket})
 * @param relayDir persistent state directory ({@code --relay-dir})
 * @param forceConfig {@code --force-config} file, if given
 * @param fallbackConfig {@code --fallback-config} file, if given
 * @param forceConfigSignal signal name reloading the forced config (e.g. {@code HUP}), if enabled
 * @param hostRoot prefix of the host's {@code /sys} ({@code --host-root}); empty path for "/"
 * @param cgroupMount parent of the cgroup controller mounts ({@code --cgroup-mount})
 * @param pidFile PID file path ({@code --pid-file})
 * @param allowUntestedRuntimes accept runtimes other than containerd and cri-o
 * @param rebalanceInterval period of policy rebalancing ({@code --rebalance-interval}); zero: never
 * @param disablePolicySwitch fail to start instead of switching away from the cached policy
 * @param configSocket socket serving the node agent's configuration ({@code --config-socket}), if
 *     enabled; not served with a forced configuration
 * @param nri the NRI plugin to run as ({@code --nri}, docs/nri.md) instead of relaying CRI; the
 *     runtime, image and relay sockets are then not used
 */
public record DaemonOptions(
    Path runtimeSocket,
    Path imageSocket,
    Path relaySocket,
    Path relayDir,
    Optional<Path> forceConfig,
    Optional<Path> fallbackConfig,
    Optional<String> forceConfigSignal,
    Path hostRoot,
    Path cgroupMount,
    Path pidFile,
    boolean allowUntestedRuntimes,
    Duration rebalanceInterval,
    boolean disablePolicySwitch,
    Optional<Path> configSocket,
    Optional<NriPluginOptions> nri) {

  /** Options in proxy mode. */
  public DaemonOptions(
      Path runtimeSocket,
      Path imageSocket,
      Path relaySocket,
      Path relayDir,
      Optional<Path> forceConfig,
      Optional<Path> fallbackConfig,
      Optional<String> forceConfigSignal,
      Path hostRoot,
      Path cgroupMount,
      Path pidFile,
      boolean allowUntestedRuntimes,
      Duration rebalanceInterval,
      boolean disablePolicySwitch,
      Optional<Path> configSocket) {
    this(
        runtimeSocket,
        imageSocket,
        relaySocket,
        relayDir,
        forceConfig,
        fallbackConfig,
        forceConfigSignal,
        hostRoot,
        cgroupMount,
        pidFile,
        allowUntestedRuntimes,
        rebalanceInterval,
        disablePolicySwitch,
        configSocket,
        Optional.empty());
  }

  /** Options without a config socket. */
  public DaemonOptions(
      Path runtimeSocket,
      Path imageSocket,
      Path relaySocket,
      Path relayDir,
      Optional<Path> forceConfig,
      Optional<Path> fallbackConfig,
      Optional<String> forceConfigSignal,
      Path hostRoot,
      Path cgroupMount,
      Path pidFile,
      boolean allowUntestedRuntimes,
      Duration rebalanceInterval,
      boolean disablePolicySwitch) {
    this(
        runtimeSocket,
        imageSocket,
        relaySocket,
        relayDir,
        forceConfig,
        fallbackConfig,
        forceConfigSignal,
        hostRoot,
        cgroupMount,
        pidFile,
        allowUntestedRuntimes,
        rebalanceInterval,
        disablePolicySwitch,
        Optional.empty());
  }

  /** These options with {@code socket} as the config socket. */
  public DaemonOptions withConfigSocket(Optional<Path> socket) {
    return new DaemonOptions(
        runtimeSocket,
        imageSocket,
        relaySocket,
        relayDir,
        forceConfig,
        fallbackConfig,
        forceConfigSignal,
        hostRoot,
        cgroupMount,
        pidFile,
        allowUntestedRuntimes,
        rebalanceInterval,
        disablePolicySwitch,
        socket,
        nri);
  }

  /** These options in NRI mode as plugin {@code plugin}, or in proxy mode if empty. */
  public DaemonOptions withNri(Optional<NriPluginOptions> plugin) {
    return new DaemonOptions(
        runtimeSocket,
        imageSocket,
        relaySocket,
        relayDir,
        forceConfig,
        fallbackConfig,
        forceConfigSignal,
        hostRoot,
        cgroupMount,
        pidFile,
        allowUntestedRuntimes,
        rebalanceInterval,
        disablePolicySwitch,
        configSocket,
        plugin);
  }

  /** Options without rebalancing, allowing policy switches. */
  public DaemonOptions(
      Path runtimeSocket,
      Path imageSocket,
      Path relaySocket,
      Path relayDir,
      Optional<Path> forceConfig,
      Optional<Path> fallbackConfig,
      Optional<String> forceConfigSignal,
      Path hostRoot,
      Path cgroupMount,
      Path pidFile,
      boolean allowUntestedRuntimes) {
    this(
        runtimeSocket,
        imageSocket,
        relaySocket,
        relayDir,
        forceConfig,
        fallbackConfig,
        forceConfigSignal,
        hostRoot,
        cgroupMount,
        pidFile,
        allowUntestedRuntimes,
        Duration.ZERO,
        false,
        Optional.empty());
  }

  /** Checks for nulls. */
  public DaemonOptions {
    Objects.requireNonNull(runtimeSocket, "runtimeSocket");
    Objects.requireNonNull(imageSocket, "imageSocket");
    Objects.requireNonNull(relaySocket, "relaySocket");
    Objects.requireNonNull(relayDir, "relayDir");
    Objects.requireNonNull(forceConfig, "forceConfig");
    Objects.requireNonNull(fallbackConfig, "fallbackConfig");
    Objects.requireNonNull(forceConfigSignal, "forceConfigSignal");
    Objects.requireNonNull(hostRoot, "hostRoot");
    Objects.requireNonNull(cgroupMount, "cgroupMount");
    Objects.requireNonNull(pidFile, "pidFile");
    Objects.requireNonNull(rebalanceInterval, "rebalanceInterval");
    Objects.requireNonNull(configSocket, "configSocket");
    Objects.requireNonNull(nri, "nri");
  }
}
