package io.criresmgr.proxy;

import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.InstrumentationConfig;
import java.nio.file.Path;
import java.time.Duration;

/** Options and configurations for daemons started by tests inside a temporary directory. */
public final class TestDaemons {
  private TestDaemons() {}

  /** Options for a daemon in {@code dir} relaying to {@code runtimeSocket}. */
  public static DaemonOptions options(Path dir, Path runtimeSocket, boolean allowUntested) {
    return options(dir, runtimeSocket, allowUntested, Path.of(""));
  }

  /**
   * As {@link #options(Path, Path, boolean)}, with the host's files below {@code hostRoot} (a
   * simulated topology).
   */
  public static DaemonOptions options(
      Path dir, Path runtimeSocket, boolean allowUntested, Path hostRoot) {
    return DaemonOptions.builder()
        .runtimeSocket(runtimeSocket)
        .relaySocket(dir.resolve("relay/cri-resmgr.sock"))
        .relayDir(dir.resolve("state"))
        .hostRoot(hostRoot)
        // nonexistent: host controllers that need cgroups stay off the real /sys/fs/cgroup
        .cgroupMount(dir.resolve("sys/fs/cgroup"))
        .pidFile(dir.resolve("cri-resmgr.pid"))
        .allowUntestedRuntimes(allowUntested)
        .build();
  }

  /** Defaults, with metrics on a free loopback port instead of :8891. */
  public static Config config() {
    Config defaults = Config.defaults();
    return withInstrumentation(defaults, "127.0.0.1:0");
  }

  /** {@code config} with the metrics endpoint replaced. */
  public static Config withInstrumentation(Config config, String endpoint) {
    return new Config(
        config.policy(),
        config.resourceManager(),
        config.dump(),
        config.logger(),
        new InstrumentationConfig("disabled", Duration.ofSeconds(15), "", "", endpoint, true),
        config.controllerSections());
  }
}
