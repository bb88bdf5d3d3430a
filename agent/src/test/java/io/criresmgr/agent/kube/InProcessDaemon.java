package io.criresmgr.agent.kube;

import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.InstrumentationConfig;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.sim.SimOptions;
import io.criresmgr.proxy.sim.SimRuntime;
import io.criresmgr.proxy.sim.SimRuntimeServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The real cri-resmgr daemon, started in this JVM in {@code dir} in front of the simulated runtime
 * (8 fake CPUs, no cgroups), with its config socket; its metrics stay off the default port.
 */
final class InProcessDaemon implements AutoCloseable {
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

  /** Starts the simulated runtime and the daemon in {@code dir}. */
  static InProcessDaemon start(Path dir) throws IOException, InterruptedException {
    Path online = dir.resolve("host/sys/devices/system/cpu/online");
    Files.createDirectories(online.getParent());
    Files.writeString(online, "0-7\n");
    SimRuntime runtime =
        new SimRuntime(
            SimOptions.defaults()
                .withRuntimeName("containerd")
                .withImages(List.of("docker.io/library/busybox:latest")));
    SimRuntimeServer sim = new SimRuntimeServer(dir.resolve("runtime/containerd.sock"), runtime);
    sim.start();
    ConfigStore store = new ConfigStore(initialConfig());
    try {
      return new InProcessDaemon(dir, sim, store, Daemon.start(options(dir, sim), store));
    } catch (RuntimeException | InterruptedException e) {
      sim.close();
      throw e;
    }
  }

  private static DaemonOptions options(Path dir, SimRuntimeServer sim) {
    return new DaemonOptions(
            sim.socket(),
            sim.socket(),
            dir.resolve("relay/cri-resmgr.sock"),
            dir.resolve("state"),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            dir.resolve("host"),
            dir.resolve("host/sys/fs/cgroup"),
            dir.resolve("cri-resmgr.pid"),
            false,
            Duration.ZERO,
            false)
        .withConfigSocket(Optional.of(dir.resolve("run/cri-resmgr-config.sock")));
  }

  /** The defaults, with the metrics endpoint on a free loopback port. */
  private static Config initialConfig() {
    Config defaults = Config.defaults();
    return new Config(
        defaults.policy(),
        defaults.resourceManager(),
        defaults.dump(),
        defaults.logger(),
        new InstrumentationConfig("disabled", Duration.ofSeconds(15), "", "", "127.0.0.1:0", true),
        defaults.controllerSections());
  }

  /** The daemon's config socket. */
  Path configSocket() {
    return dir.resolve("run/cri-resmgr-config.sock");
  }

  /** The daemon's relay directory (holds the cache file). */
  Path relayDir() {
    return dir.resolve("state");
  }

  /** The daemon's configuration store: its active configuration. */
  ConfigStore store() {
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
