package io.criresmgr.proxy.cli;

import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigPrinter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code cri-resmgr} command: cri-resmgr's flags with their names and defaults. Runs {@code
 * --version}, {@code --list-policies}, {@code --print-config} and {@code config-help} itself and
 * hands everything else to {@link DaemonStartup}.
 */
@Command(
    name = CriResmgrCommand.NAME,
    versionProvider = VersionInfo.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    abbreviateSynopsis = true,
    description = "A CRI proxy that decides CPU, memory and I/O placement of containers.")
public final class CriResmgrCommand implements Callable<Integer> {
  /** The program name. */
  public static final String NAME = "cri-resmgr";

  @Spec @Nullable CommandSpec spec;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Print this help and exit.")
  boolean help;

  @Option(names = "--version", versionHelp = true, description = "Print version and exit.")
  boolean version;

  @Option(
      names = "--runtime-socket",
      paramLabel = "PATH",
      defaultValue = DaemonFlags.DEFAULT_RUNTIME_SOCKET,
      description =
          "Socket of the CRI runtime service (unix:// optional). Default: ${DEFAULT-VALUE}")
  String runtimeSocket = "";

  @Option(
      names = "--image-socket",
      paramLabel = "PATH",
      defaultValue = DaemonFlags.DEFAULT_IMAGE_SOCKET,
      description = "Socket of the CRI image service; 'default' means --runtime-socket.")
  String imageSocket = "";

  @Option(
      names = "--relay-socket",
      paramLabel = "PATH",
      defaultValue = DaemonFlags.DEFAULT_RELAY_SOCKET,
      description = "Socket cri-resmgr serves CRI on. Default: ${DEFAULT-VALUE}")
  String relaySocket = "";

  @Option(
      names = "--relay-dir",
      paramLabel = "DIR",
      defaultValue = DaemonFlags.DEFAULT_RELAY_DIR,
      description = "Directory for persistent state. Default: ${DEFAULT-VALUE}")
  String relayDir = "";

  @Option(
      names = "--nri",
      arity = "0..1",
      paramLabel = "BOOL",
      fallbackValue = "true",
      description =
          "Run as an NRI plugin of the runtime instead of relaying CRI (--runtime-socket,"
              + " --image-socket and --relay-socket are then not used).")
  boolean nri;

  @Option(
      names = "--nri-socket",
      paramLabel = "PATH",
      defaultValue = DaemonFlags.DEFAULT_NRI_SOCKET,
      description = "The runtime's NRI socket, with --nri. Default: ${DEFAULT-VALUE}")
  String nriSocket = "";

  @Option(
      names = "--nri-index",
      paramLabel = "NN",
      defaultValue = DaemonFlags.DEFAULT_NRI_INDEX,
      description =
          "The plugin's two-digit NRI index, with --nri (plugins run in ascending order)."
              + " Default: ${DEFAULT-VALUE}")
  String nriIndex = "";

  @Option(
      names = "--config-socket",
      paramLabel = "PATH",
      defaultValue = DaemonFlags.DEFAULT_CONFIG_SOCKET,
      description =
          "Socket serving configuration for the node agent (unix:// optional; '' or 'disabled'"
              + " for none; not served with --force-config). Default: ${DEFAULT-VALUE}")
  String configSocket = "";

  @Option(
      names = "--force-config",
      paramLabel = "FILE",
      defaultValue = "",
      description = "Configuration file that overrides any other configuration.")
  String forceConfig = "";

  @Option(
      names = "--fallback-config",
      paramLabel = "FILE",
      defaultValue = "",
      description = "Configuration file used when no other configuration is available.")
  String fallbackConfig = "";

  @Option(
      names = "--force-config-signal",
      paramLabel = "SIGNAL",
      defaultValue = DaemonFlags.DEFAULT_FORCE_CONFIG_SIGNAL,
      description =
          "Signal reloading --force-config (SIGHUP or SIGUSR2; '' or 'disabled' for"
              + " none). Default: ${DEFAULT-VALUE}")
  String forceConfigSignal = "";

  @Option(
      names = "--host-root",
      paramLabel = "DIR",
      defaultValue = "",
      description = "Prefix of the host's /sys (when running in a container).")
  String hostRoot = "";

  @Option(
      names = "--cgroup-mount",
      paramLabel = "DIR",
      defaultValue = DaemonFlags.DEFAULT_CGROUP_MOUNT,
      description = "Parent directory of cgroup mounts. Default: ${DEFAULT-VALUE}")
  String cgroupMount = "";

  @Option(
      names = "--pid-file",
      paramLabel = "FILE",
      description = "PID file. Default: /var/run/cri-resmgr.pid as root, else /tmp/cri-resmgr.pid")
  @Nullable String pidFile;

  @Option(
      names = "--health-endpoint",
      paramLabel = "[HOST]:PORT",
      defaultValue = DaemonFlags.DEFAULT_HEALTH_ENDPOINT,
      description =
          "Serve only /livez and /healthz on this HTTP endpoint too, whatever the configuration's"
              + " instrumentation.HTTPEndpoint (e.g. :8892, for kubelet's probes); '' for none."
              + " Default: none")
  String healthEndpoint = "";

  @Option(
      names = "--allow-untested-runtimes",
      arity = "0..1",
      paramLabel = "BOOL",
      fallbackValue = "true",
      description = "Accept runtimes other than containerd and CRI-O.")
  boolean allowUntestedRuntimes;

  @Option(
      names = "--print-config",
      arity = "0..1",
      paramLabel = "BOOL",
      fallbackValue = "true",
      description = "Print the effective configuration as YAML and exit.")
  boolean printConfig;

  @Option(
      names = "--list-policies",
      arity = "0..1",
      paramLabel = "BOOL",
      fallbackValue = "true",
      description = "List the available policies and exit.")
  boolean listPolicies;

  @Option(
      names = "--reset-config",
      arity = "0..1",
      paramLabel = "BOOL",
      fallbackValue = "true",
      description = "Forget the configuration stored from the node agent, then exit.")
  boolean resetConfig;

  @Option(
      names = "--reset-policy",
      arity = "0..1",
      paramLabel = "BOOL",
      fallbackValue = "true",
      description = "Forget the active policy and all policy data in the cache, then exit.")
  boolean resetPolicy;

  @Option(
      names = "--disable-policy-switch",
      arity = "0..1",
      paramLabel = "BOOL",
      fallbackValue = "true",
      description = "Fail to start if the cached policy differs from policy.Active.")
  boolean disablePolicySwitch;

  @Mixin CompatibilityOptions compatibility = new CompatibilityOptions();

  private final KlogFlagOptions klogFlags = new KlogFlagOptions();

  @Parameters(
      paramLabel = "help|config-help [SECTION...]",
      arity = "0..*",
      description = "Describe the configuration sections and exit.")
  List<String> positional = new ArrayList<>();

  private final PolicyRegistry policies;
  private final DaemonStartup startup;

  /** A command listing and accepting {@code policies}, starting the daemon with {@code startup}. */
  public CriResmgrCommand(PolicyRegistry policies, DaemonStartup startup) {
    this.policies = Objects.requireNonNull(policies, "policies");
    this.startup = Objects.requireNonNull(startup, "startup");
  }

  /**
   * Adds cri-resmgr's klog flags ({@code -v}, {@code -logtostderr}, ...) to {@code spec}, the spec
   * of the command line made for this command. They are built from one list rather than declared
   * one by one.
   */
  public void addKlogFlags(CommandSpec spec) {
    klogFlags.addTo(spec);
  }

  @Override
  public Integer call() {
    if (!positional.isEmpty()) {
      return configHelp();
    }
    if (listPolicies) {
      out().println("Available policies:");
      for (PolicyProvider<?> p : policies.all()) {
        out().println("  * " + p.name() + ": " + p.description());
      }
      return 0;
    }
    DaemonOptions options = daemonOptions();
    if (resetConfig || resetPolicy) {
      return CacheReset.run(options, resetConfig, resetPolicy, out(), err());
    }
    Config config = initialConfig(options);
    if (printConfig) {
      out().print(ConfigPrinter.toYaml(config));
      return 0;
    }
    return startup.start(options, config, klogFlags::applyTo);
  }

  private int configHelp() {
    String first = positional.get(0);
    if (!first.equals("help") && !first.equals("config-help")) {
      throw usageError(
          "unexpected argument \"" + first + "\" (only help and config-help are accepted)");
    }
    try {
      out().print(new ConfigHelp(policies).describe(positional.subList(1, positional.size())));
    } catch (IllegalArgumentException e) {
      throw usageError(e.getMessage());
    }
    return 0;
  }

  /** The parsed flags; throws a usage error for inconsistent ones. */
  DaemonOptions daemonOptions() {
    DaemonFlags f = new DaemonFlags();
    f.runtimeSocket = runtimeSocket;
    f.imageSocket = imageSocket;
    f.relaySocket = relaySocket;
    f.relayDir = relayDir;
    f.nri = nri;
    f.nriSocket = nriSocket;
    f.nriIndex = nriIndex;
    f.configSocket = configSocket;
    f.forceConfig = forceConfig;
    f.fallbackConfig = fallbackConfig;
    f.forceConfigSignal = forceConfigSignal;
    f.hostRoot = hostRoot;
    f.cgroupMount = cgroupMount;
    f.pidFile = pidFile;
    f.allowUntestedRuntimes = allowUntestedRuntimes;
    f.disablePolicySwitch = disablePolicySwitch;
    f.rebalanceInterval = compatibility.rebalanceInterval;
    f.healthEndpoint = healthEndpoint;
    try {
      return f.toOptions(NAME);
    } catch (DaemonFlags.UsageException e) {
      throw usageError(e.getMessage());
    }
  }

  private Config initialConfig(DaemonOptions options) {
    return InitialConfig.choose(options, startup.loader());
  }

  private ParameterException usageError(@Nullable String message) {
    return new ParameterException(Objects.requireNonNull(spec).commandLine(), message);
  }

  private PrintWriter out() {
    return Objects.requireNonNull(spec).commandLine().getOut();
  }

  private PrintWriter err() {
    return Objects.requireNonNull(spec).commandLine().getErr();
  }
}
