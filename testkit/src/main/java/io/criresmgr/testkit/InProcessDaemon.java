package io.criresmgr.testkit;

import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.InstrumentationConfig;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The real cri-resmgr daemon, started in this JVM in {@code dir} in front of the simulated runtime
 * (on a fake sysfs, by default a laptop's: 4 cores, 8 threads; no cgroups), with its config socket;
 * its metrics stay off the default port. For the integration tests of the modules above the daemon
 * (agent, webhook) and the benchmarks, which start a daemon of their own with {@link #options(Path,
 * Path, Path)} and {@link #config()}.
 */
public final class InProcessDaemon implements AutoCloseable {
  /** The image the simulated runtime has. */
  public static final String IMAGE = "docker.io/library/busybox:latest";

  private static final String RUNTIME_SOCKET = "runtime/containerd.sock";

  private final Path dir;
  private final SimRuntimeServer sim;
  private final ConfigStore store;
  private final Daemon daemon;

  private InProcessDaemon(Path dir, SimRuntimeServer sim, ConfigStore store, Daemon daemon) {
    this.dir = dir;
    this.sim = sim;
    this.store = store;
    this.daemon = daemon;
  }

  /** Starts the simulated runtime and the daemon with policy {@code policy} in {@code dir}. */
  public static InProcessDaemon start(Path dir, String policy)
      throws IOException, InterruptedException {
    return start(dir, TopologySpec.builtIn("laptop"), policy);
  }

  /**
   * Starts the simulated runtime and the daemon with policy {@code policy} (1 CPU reserved) in
   * {@code dir}, on the fake sysfs of {@code spec} (written at the first start in {@code dir}).
   */
  public static InProcessDaemon start(Path dir, TopologySpec spec, String policy)
      throws IOException, InterruptedException {
    if (!Files.exists(dir.resolve("host/sys"))) { // a restart in the same directory keeps it
      FakeSysfsWriter.write(spec, dir.resolve("host"));
    }
    SimRuntime runtime =
        new SimRuntime(
            SimOptions.defaults().withRuntimeName("containerd").withImages(List.of(IMAGE)));
    SimRuntimeServer sim = new SimRuntimeServer(dir.resolve(RUNTIME_SOCKET), runtime);
    sim.start();
    ConfigStore store = new ConfigStore(initialConfig(policy));
    try {
      return new InProcessDaemon(dir, sim, store, Daemon.start(options(dir), store));
    } catch (RuntimeException | InterruptedException e) {
      sim.close();
      throw e;
    }
  }

  /**
   * The daemon's options in {@code dir} (with its config socket), e.g. to choose its configuration
   * as a restart would.
   */
  public static DaemonOptions options(Path dir) {
    return options(dir, dir.resolve(RUNTIME_SOCKET), dir.resolve("host")).toBuilder()
        .configSocket(Optional.of(dir.resolve("run/cri-resmgr-config.sock")))
        .build();
  }

  /**
   * Options for a daemon in {@code dir} relaying to {@code runtimeSocket}, reading the host's files
   * below {@code hostRoot} (empty: the real root, as {@code --host-root} says): a tested runtime
   * only, no rebalancing, no config socket, and a cgroup mount below {@code dir}, so controllers
   * never touch the real {@code /sys/fs/cgroup}.
   */
  public static DaemonOptions options(Path dir, Path runtimeSocket, Path hostRoot) {
    return DaemonOptions.builder()
        .runtimeSocket(runtimeSocket)
        .relaySocket(dir.resolve("relay/cri-resmgr.sock"))
        .relayDir(dir.resolve("state"))
        .hostRoot(hostRoot)
        .cgroupMount(dir.resolve("host/sys/fs/cgroup"))
        .pidFile(dir.resolve("cri-resmgr.pid"))
        .build();
  }

  /** The defaults, with the metrics endpoint on a free loopback port instead of :8891. */
  public static Config config() {
    Config defaults = Config.defaults();
    return new Config(
        defaults.policy(),
        defaults.resourceManager(),
        defaults.dump(),
        defaults.logger(),
        new InstrumentationConfig("disabled", Duration.ofSeconds(15), "", "", "127.0.0.1:0", true),
        defaults.controllerSections());
  }

  /** {@link #config()} with {@code policy}, 1 CPU reserved. */
  private static Config initialConfig(String policy) {
    Config base = config();
    return new Config(
        new PolicyConfig(policy, Map.of(), Map.of("CPU", "1"), Map.of()),
        base.resourceManager(),
        base.dump(),
        base.logger(),
        base.instrumentation(),
        base.controllerSections());
  }

  /** The daemon's config socket. */
  public Path configSocket() {
    return dir.resolve("run/cri-resmgr-config.sock");
  }

  /** The daemon's relay socket, where kubelet calls. */
  public Path relaySocket() {
    return dir.resolve("relay/cri-resmgr.sock");
  }

  /** The simulated runtime's socket. */
  public Path runtimeSocket() {
    return sim.socket();
  }

  /** The daemon's relay directory (holds the cache file). */
  public Path relayDir() {
    return dir.resolve("state");
  }

  /** The daemon's configuration store: its active configuration. */
  public ConfigStore store() {
    return store;
  }

  /** Stops the daemon, then the runtime. */
  @Override
  public void close() {
    try {
      daemon.close();
    } finally {
      sim.close();
    }
  }
}
