package io.criresmgr.proxy.cli;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.CacheException;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.daemon.StateDirLock;
import io.criresmgr.proxy.relay.UnixFiles;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.Set;

/**
 * {@code --reset-config} and {@code --reset-policy} (docs/architecture.md, "Persistence and
 * restart"): edit the cache file of a stopped daemon and exit. Both refuse while a process serves
 * the relay socket, because a running daemon would overwrite the file with its own state. The exit
 * status is the number of resets that failed.
 */
final class CacheReset {
  private CacheReset() {}

  static int run(
      DaemonOptions options, boolean config, boolean policy, PrintWriter out, PrintWriter err) {
    if (isServed(options)) {
      String message =
          "refusing to reset the cache: a process serves "
              + options.relaySocket()
              + " or uses "
              + options.relayDir()
              + "; stop cri-resmgr first";
      if (config) {
        err.println(message);
      }
      if (policy) {
        err.println(message);
      }
      return (config ? 1 : 0) + (policy ? 1 : 0);
    }
    CacheFile file = new CacheFile(options.relayDir());
    try {
      CacheFile.LoadResult loaded = file.load();
      loaded.problem().ifPresent(err::println);
      NodeCache cache = loaded.snapshot().map(NodeCache::restore).orElseGet(NodeCache::new);
      if (config) {
        cache.setAgentConfig(null);
        // The next start takes the stored adjustments' effects back from the containers.
        cache.setAdjustments(null);
        out.println("removed the stored agent configuration and adjustments from " + file.path());
      }
      if (policy) {
        cache.resetPolicy();
        // The next start allocates every container afresh with the configured policy.
        cache
            .containers()
            .forEach(c -> cache.putContainer(c.withAssignment(Assignment.NONE, Set.of())));
        out.println("removed the active policy and all policy data from " + file.path());
      }
      file.save(cache.snapshot());
      return 0;
    } catch (CacheException e) {
      err.println("cannot reset " + file.path() + ": " + e.getMessage());
      return (config ? 1 : 0) + (policy ? 1 : 0);
    }
  }

  private static boolean isServed(DaemonOptions options) {
    return (Files.exists(options.relaySocket()) && UnixFiles.isServed(options.relaySocket()))
        || StateDirLock.isHeld(options.relayDir());
  }
}
