package io.criresmgr.proxy;

import io.criresmgr.nri.NriPluginOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The daemon's command-line options after parsing (same names and defaults as cri-resmgr). Built
 * with {@link #builder()}, or changed with {@link #toBuilder()}.
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
 * @param healthEndpoint {@code [host]:port} of a small HTTP listener serving only {@code /livez}
 *     and {@code /healthz} ({@code --health-endpoint}), whatever the configuration's {@code
 *     instrumentation.HTTPEndpoint} says; empty: none (the default)
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
    Optional<NriPluginOptions> nri,
    Optional<String> healthEndpoint) {

  /** A builder with the defaults listed in {@link Builder}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding every option of these, to change some and {@link Builder#build}. */
  public Builder toBuilder() {
    return new Builder(this);
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
    Objects.requireNonNull(healthEndpoint, "healthEndpoint");
  }

  /**
   * Builds {@link DaemonOptions}. {@link #build} fails naming the first of {@code runtimeSocket},
   * {@code relaySocket}, {@code relayDir}, {@code cgroupMount} and {@code pidFile} that was not
   * set. The others default to: the image socket is the runtime socket, the host root is the empty
   * path ("/"), no forced or fallback configuration, no reload signal, no config socket, proxy mode
   * (no NRI plugin), a tested runtime only, no rebalancing, policy switches allowed, no health
   * endpoint of its own.
   */
  public static final class Builder {
    private @Nullable Path runtimeSocket;
    private @Nullable Path imageSocket;
    private @Nullable Path relaySocket;
    private @Nullable Path relayDir;
    private Optional<Path> forceConfig = Optional.empty();
    private Optional<Path> fallbackConfig = Optional.empty();
    private Optional<String> forceConfigSignal = Optional.empty();
    private Path hostRoot = Path.of("");
    private @Nullable Path cgroupMount;
    private @Nullable Path pidFile;
    private boolean allowUntestedRuntimes = false;
    private Duration rebalanceInterval = Duration.ZERO;
    private boolean disablePolicySwitch = false;
    private Optional<Path> configSocket = Optional.empty();
    private Optional<NriPluginOptions> nri = Optional.empty();
    private Optional<String> healthEndpoint = Optional.empty();

    private Builder() {}

    private Builder(DaemonOptions o) {
      runtimeSocket = o.runtimeSocket;
      imageSocket = o.imageSocket;
      relaySocket = o.relaySocket;
      relayDir = o.relayDir;
      forceConfig = o.forceConfig;
      fallbackConfig = o.fallbackConfig;
      forceConfigSignal = o.forceConfigSignal;
      hostRoot = o.hostRoot;
      cgroupMount = o.cgroupMount;
      pidFile = o.pidFile;
      allowUntestedRuntimes = o.allowUntestedRuntimes;
      rebalanceInterval = o.rebalanceInterval;
      disablePolicySwitch = o.disablePolicySwitch;
      configSocket = o.configSocket;
      nri = o.nri;
      healthEndpoint = o.healthEndpoint;
    }

    /** Sets {@link DaemonOptions#runtimeSocket}. */
    public Builder runtimeSocket(Path value) {
      runtimeSocket = value;
      return this;
    }

    /** Sets {@link DaemonOptions#imageSocket}; unset, it is the runtime socket. */
    public Builder imageSocket(Path value) {
      imageSocket = value;
      return this;
    }

    /** Sets {@link DaemonOptions#relaySocket}. */
    public Builder relaySocket(Path value) {
      relaySocket = value;
      return this;
    }

    /** Sets {@link DaemonOptions#relayDir}. */
    public Builder relayDir(Path value) {
      relayDir = value;
      return this;
    }

    /** Sets {@link DaemonOptions#forceConfig}. */
    public Builder forceConfig(Optional<Path> value) {
      forceConfig = value;
      return this;
    }

    /** Sets {@link DaemonOptions#fallbackConfig}. */
    public Builder fallbackConfig(Optional<Path> value) {
      fallbackConfig = value;
      return this;
    }

    /** Sets {@link DaemonOptions#forceConfigSignal}. */
    public Builder forceConfigSignal(Optional<String> value) {
      forceConfigSignal = value;
      return this;
    }

    /** Sets {@link DaemonOptions#hostRoot}. */
    public Builder hostRoot(Path value) {
      hostRoot = value;
      return this;
    }

    /** Sets {@link DaemonOptions#cgroupMount}. */
    public Builder cgroupMount(Path value) {
      cgroupMount = value;
      return this;
    }

    /** Sets {@link DaemonOptions#pidFile}. */
    public Builder pidFile(Path value) {
      pidFile = value;
      return this;
    }

    /** Sets {@link DaemonOptions#allowUntestedRuntimes}. */
    public Builder allowUntestedRuntimes(boolean value) {
      allowUntestedRuntimes = value;
      return this;
    }

    /** Sets {@link DaemonOptions#rebalanceInterval}. */
    public Builder rebalanceInterval(Duration value) {
      rebalanceInterval = value;
      return this;
    }

    /** Sets {@link DaemonOptions#disablePolicySwitch}. */
    public Builder disablePolicySwitch(boolean value) {
      disablePolicySwitch = value;
      return this;
    }

    /** Sets {@link DaemonOptions#configSocket}. */
    public Builder configSocket(Optional<Path> value) {
      configSocket = value;
      return this;
    }

    /** Sets {@link DaemonOptions#nri}. */
    public Builder nri(Optional<NriPluginOptions> value) {
      nri = value;
      return this;
    }

    /** Sets {@link DaemonOptions#healthEndpoint}. */
    public Builder healthEndpoint(Optional<String> value) {
      healthEndpoint = value;
      return this;
    }

    /** The options; fails if one without a default was not set. */
    public DaemonOptions build() {
      Path runtime = required(runtimeSocket, "runtimeSocket");
      return new DaemonOptions(
          runtime,
          imageSocket != null ? imageSocket : runtime,
          required(relaySocket, "relaySocket"),
          required(relayDir, "relayDir"),
          forceConfig,
          fallbackConfig,
          forceConfigSignal,
          hostRoot,
          required(cgroupMount, "cgroupMount"),
          required(pidFile, "pidFile"),
          allowUntestedRuntimes,
          rebalanceInterval,
          disablePolicySwitch,
          configSocket,
          nri,
          healthEndpoint);
    }

    private static <T> T required(@Nullable T value, String name) {
      return Objects.requireNonNull(value, () -> "DaemonOptions." + name + " not set");
    }
  }
}
