package io.criresmgr.proxy.cli;

import io.criresmgr.cache.GoDuration;
import io.criresmgr.nri.NriPluginOptions;
import io.criresmgr.proxy.DaemonOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The flags that shape the running daemon, as given (defaults applied), and how they become {@link
 * DaemonOptions}. {@link CriResmgrCommand} fills them from picocli's parse; {@link #parsePlain}
 * reads a plain daemon command line without picocli, which saves the start about a quarter of its
 * main thread's work (docs/adr/0011-daemon-flags-without-picocli.md). The defaults are declared
 * here once and referenced by the command's {@code @Option}s.
 */
final class DaemonFlags {
  static final String DEFAULT_RUNTIME_SOCKET = "/var/run/containerd/containerd.sock";
  static final String DEFAULT_IMAGE_SOCKET = "default";
  static final String DEFAULT_RELAY_SOCKET = "/var/run/cri-resmgr/cri-resmgr.sock";
  static final String DEFAULT_RELAY_DIR = "/var/lib/cri-resmgr";
  static final String DEFAULT_NRI_SOCKET = "/var/run/nri/nri.sock";
  static final String DEFAULT_NRI_INDEX = "90";
  static final String DEFAULT_CONFIG_SOCKET = "/var/run/cri-resmgr/cri-resmgr-config.sock";
  static final String DEFAULT_FORCE_CONFIG_SIGNAL = "SIGHUP";
  static final String DEFAULT_CGROUP_MOUNT = "/sys/fs/cgroup";
  static final String DEFAULT_HEALTH_ENDPOINT = "";

  /** How a flag of the plain command line takes its value. */
  private enum Kind {
    /** A string. */
    VALUE,
    /** {@code true} alone, or {@code =true} / {@code =false}. */
    BOOLEAN,
    /** A non-negative Go duration. */
    DURATION
  }

  /**
   * The flags {@link #parsePlain} reads: the daemon's own and the accepted cri-resmgr flags without
   * effect ({@link CompatibilityOptions}). Anything else (help, version, klog flags, the flags that
   * run something and exit, subcommands) is left to picocli.
   */
  private static final Map<String, Kind> PLAIN =
      Map.ofEntries(
          Map.entry("runtime-socket", Kind.VALUE),
          Map.entry("image-socket", Kind.VALUE),
          Map.entry("relay-socket", Kind.VALUE),
          Map.entry("relay-dir", Kind.VALUE),
          Map.entry("nri", Kind.BOOLEAN),
          Map.entry("nri-socket", Kind.VALUE),
          Map.entry("nri-index", Kind.VALUE),
          Map.entry("config-socket", Kind.VALUE),
          Map.entry("force-config", Kind.VALUE),
          Map.entry("fallback-config", Kind.VALUE),
          Map.entry("force-config-signal", Kind.VALUE),
          Map.entry("host-root", Kind.VALUE),
          Map.entry("cgroup-mount", Kind.VALUE),
          Map.entry("pid-file", Kind.VALUE),
          Map.entry("allow-untested-runtimes", Kind.BOOLEAN),
          Map.entry("disable-policy-switch", Kind.BOOLEAN),
          Map.entry("health-endpoint", Kind.VALUE),
          Map.entry("rebalance-interval", Kind.DURATION),
          Map.entry("agent-socket", Kind.VALUE),
          Map.entry("metrics-interval", Kind.DURATION),
          Map.entry("disable-ui", Kind.BOOLEAN),
          Map.entry("cgroup-v2-dir", Kind.VALUE),
          Map.entry("kubelet-cgroup-root", Kind.VALUE));

  /**
   * A separate value picocli might not take as the value: a word that could name a subcommand
   * (picocli then reports a missing value), or an argument file ({@code @FILE}, expanded first).
   */
  private static final Pattern AMBIGUOUS_VALUE = Pattern.compile("[a-z-]+|@.*");

  String runtimeSocket = DEFAULT_RUNTIME_SOCKET;
  String imageSocket = DEFAULT_IMAGE_SOCKET;
  String relaySocket = DEFAULT_RELAY_SOCKET;
  String relayDir = DEFAULT_RELAY_DIR;
  boolean nri;
  String nriSocket = DEFAULT_NRI_SOCKET;
  String nriIndex = DEFAULT_NRI_INDEX;
  String configSocket = DEFAULT_CONFIG_SOCKET;
  String forceConfig = "";
  String fallbackConfig = "";
  String forceConfigSignal = DEFAULT_FORCE_CONFIG_SIGNAL;
  String hostRoot = "";
  String cgroupMount = DEFAULT_CGROUP_MOUNT;
  @Nullable String pidFile;
  boolean allowUntestedRuntimes;
  boolean disablePolicySwitch;
  Duration rebalanceInterval = Duration.ZERO;
  String healthEndpoint = DEFAULT_HEALTH_ENDPOINT;

  /** A usage error in the flags, with the message picocli's usage error shows. */
  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /**
   * The flags of {@code args} if they are a plain daemon command line: only the flags of {@link
   * #PLAIN}, each at most once, spelled {@code --flag=value}, {@code --flag value} or with Go's
   * single dash, booleans alone or with {@code =true}/{@code =false}, every value well-formed.
   * Anything else gives empty, and picocli parses the command line (and reports its errors) as
   * before; where this parse accepts, picocli's gives the same flags ({@code DaemonFlagsTest}).
   */
  static Optional<DaemonFlags> parsePlain(List<String> args) {
    Map<String, String> given = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("-") || arg.startsWith("---")) {
        return Optional.empty();
      }
      String body = arg.substring(arg.startsWith("--") ? 2 : 1);
      int eq = body.indexOf('=');
      String name = eq < 0 ? body : body.substring(0, eq);
      Kind kind = PLAIN.get(name);
      if (kind == null || given.containsKey(name)) {
        return Optional.empty();
      }
      String value;
      if (eq >= 0) {
        value = body.substring(eq + 1);
      } else if (kind == Kind.BOOLEAN) {
        value = "true";
      } else if (i + 1 < args.size() && isPlainValue(args.get(i + 1))) {
        value = args.get(++i);
      } else {
        return Optional.empty();
      }
      if (!wellFormed(kind, value)) {
        return Optional.empty();
      }
      given.put(name, value);
    }
    return Optional.of(from(given));
  }

  private static boolean isPlainValue(String value) {
    return !value.startsWith("-") && !AMBIGUOUS_VALUE.matcher(value).matches();
  }

  private static boolean wellFormed(Kind kind, String value) {
    return switch (kind) {
      case VALUE -> true;
      case BOOLEAN -> value.equals("true") || value.equals("false");
      case DURATION -> duration(value).isPresent();
    };
  }

  private static Optional<Duration> duration(String value) {
    try {
      Duration d = GoDuration.parse(value);
      return d.isNegative() ? Optional.empty() : Optional.of(d);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static DaemonFlags from(Map<String, String> given) {
    DaemonFlags f = new DaemonFlags();
    f.runtimeSocket = given.getOrDefault("runtime-socket", f.runtimeSocket);
    f.imageSocket = given.getOrDefault("image-socket", f.imageSocket);
    f.relaySocket = given.getOrDefault("relay-socket", f.relaySocket);
    f.relayDir = given.getOrDefault("relay-dir", f.relayDir);
    f.nri = Boolean.parseBoolean(given.getOrDefault("nri", "false"));
    f.nriSocket = given.getOrDefault("nri-socket", f.nriSocket);
    f.nriIndex = given.getOrDefault("nri-index", f.nriIndex);
    f.configSocket = given.getOrDefault("config-socket", f.configSocket);
    f.forceConfig = given.getOrDefault("force-config", f.forceConfig);
    f.fallbackConfig = given.getOrDefault("fallback-config", f.fallbackConfig);
    f.forceConfigSignal = given.getOrDefault("force-config-signal", f.forceConfigSignal);
    f.hostRoot = given.getOrDefault("host-root", f.hostRoot);
    f.cgroupMount = given.getOrDefault("cgroup-mount", f.cgroupMount);
    f.pidFile = given.get("pid-file");
    f.allowUntestedRuntimes =
        Boolean.parseBoolean(given.getOrDefault("allow-untested-runtimes", "false"));
    f.disablePolicySwitch =
        Boolean.parseBoolean(given.getOrDefault("disable-policy-switch", "false"));
    f.rebalanceInterval =
        duration(given.getOrDefault("rebalance-interval", "0")).orElse(Duration.ZERO);
    f.healthEndpoint = given.getOrDefault("health-endpoint", f.healthEndpoint);
    return f;
  }

  /** The daemon's options; a {@link UsageException} names an inconsistent or malformed flag. */
  DaemonOptions toOptions(String program) {
    if (!forceConfig.isEmpty() && !fallbackConfig.isEmpty()) {
      throw new UsageException(
          "--force-config and --fallback-config are mutually exclusive, give one");
    }
    Optional<String> signal;
    try {
      signal = FlagValues.reloadSignal(forceConfigSignal);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--force-config-signal: " + e.getMessage());
    }
    Optional<String> health;
    try {
      health = FlagValues.healthEndpoint(healthEndpoint);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--health-endpoint: " + e.getMessage());
    }
    Path runtime = Path.of(FlagValues.socketPath(runtimeSocket));
    return DaemonOptions.builder()
        .runtimeSocket(runtime)
        .imageSocket(
            imageSocket.equals("default") ? runtime : Path.of(FlagValues.socketPath(imageSocket)))
        .relaySocket(Path.of(FlagValues.socketPath(relaySocket)))
        .relayDir(Path.of(relayDir))
        .forceConfig(optionalPath(forceConfig))
        .fallbackConfig(optionalPath(fallbackConfig))
        .forceConfigSignal(signal)
        .hostRoot(Path.of(hostRoot))
        .cgroupMount(Path.of(cgroupMount))
        .pidFile(
            pidFile != null
                ? Path.of(pidFile)
                : FlagValues.defaultPidFile(program, FlagValues.isRoot()))
        .allowUntestedRuntimes(allowUntestedRuntimes)
        .rebalanceInterval(rebalanceInterval)
        .disablePolicySwitch(disablePolicySwitch)
        .configSocket(FlagValues.optionalSocket(configSocket))
        .nri(nriPlugin(program))
        .healthEndpoint(health)
        .build();
  }

  private Optional<NriPluginOptions> nriPlugin(String program) {
    if (!nri) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          NriPluginOptions.of(program, nriIndex)
              .withSocket(Path.of(FlagValues.socketPath(nriSocket))));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--nri-index: " + e.getMessage());
    }
  }

  private static Optional<Path> optionalPath(String value) {
    return value.isEmpty() ? Optional.empty() : Optional.of(Path.of(value));
  }
}
