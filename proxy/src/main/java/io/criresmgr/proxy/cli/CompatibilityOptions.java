package io.criresmgr.proxy.cli;

import io.criresmgr.cache.GoDuration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Flags of cri-resmgr that are accepted and checked (so existing command lines and unit files keep
 * working) but have no effect yet: the agent interface, metrics polling, the UI and cgroup v2
 * details; and {@code --rebalance-interval}, which does.
 */
public final class CompatibilityOptions {
  @Option(
      names = "--agent-socket",
      paramLabel = "PATH",
      defaultValue = "/var/run/cri-resmgr/cri-resmgr-agent.sock",
      description =
          "The node agent's Agent API socket (accepted; the daemon does not call the agent yet:"
              + " nothing it does needs the Node object).")
  String agentSocket = "";

  @Option(
      names = "--metrics-interval",
      paramLabel = "DURATION",
      defaultValue = "0",
      converter = GoDurationConverter.class,
      description = "Metrics polling interval, Go duration (accepted; not used yet).")
  Duration metricsInterval = Duration.ZERO;

  @Option(
      names = "--rebalance-interval",
      paramLabel = "DURATION",
      defaultValue = "0",
      converter = GoDurationConverter.class,
      description = "Period of policy rebalancing, Go duration; 0 disables. Default: 0")
  Duration rebalanceInterval = Duration.ZERO;

  @Option(
      names = "--disable-ui",
      arity = "0..1",
      paramLabel = "BOOL",
      fallbackValue = "true",
      description = "Do not serve the web UI (accepted; there is no UI yet).")
  boolean disableUi;

  @Option(
      names = "--cgroup-v2-dir",
      paramLabel = "DIR",
      defaultValue = "/sys/fs/cgroup/unified",
      description = "cgroup v2 directory (accepted; not used yet).")
  String cgroupV2Dir = "";

  @Option(
      names = "--kubelet-cgroup-root",
      paramLabel = "DIR",
      defaultValue = "",
      description = "The kubelet's --cgroup-root (accepted; not used yet).")
  String kubeletCgroupRoot = "";

  /** Converts Go durations ({@code 0}, {@code 15s}, {@code 1m30s}); negative ones are refused. */
  static final class GoDurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        Duration d = GoDuration.parse(value);
        if (d.isNegative()) {
          throw new TypeConversionException("negative duration \"" + value + "\"");
        }
        return d;
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("\"" + value + "\": " + e.getMessage());
      }
    }
  }
}
