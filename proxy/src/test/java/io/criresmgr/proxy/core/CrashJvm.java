package io.criresmgr.proxy.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the crash test starts daemon JVMs: the class path and the JVM options. Options favour a fast
 * start over peak speed; {@link #withSharedArchive} adds a dynamic class data sharing archive.
 *
 * @param classPath the class path holding {@link io.criresmgr.proxy.DaemonMain} and its
 *     dependencies
 * @param options JVM options
 */
record CrashJvm(String classPath, List<String> options) {
  private static final Logger LOG = LoggerFactory.getLogger(CrashJvm.class);
  private static final List<String> FAST_START =
      List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Xmx256m");

  CrashJvm {
    Objects.requireNonNull(classPath, "classPath");
    options = List.copyOf(options);
  }

  /** This JVM's class path with the fast-start options. */
  static CrashJvm plain() {
    return new CrashJvm(System.getProperty("java.class.path"), FAST_START);
  }

  /**
   * The fast-start options plus a CDS archive of the daemon's classes, dumped by one warm-up daemon
   * in {@code layout} that is stopped with SIGTERM; {@link #plain()} if no archive results.
   */
  static CrashJvm withSharedArchive(CrashDaemon.Layout layout, Path workDir)
      throws IOException, InterruptedException {
    String classPath = CrashClassPath.jarsOnly(workDir);
    Path archive = workDir.resolve("daemon.jsa");
    CrashJvm dumping = new CrashJvm(classPath, with("-XX:ArchiveClassesAtExit=" + archive));
    CrashDaemon warmUp = CrashDaemon.start(layout, dumping, workDir.resolve("warm-up.log"));
    try {
      warmUp.awaitServing(layout, Duration.ofSeconds(60));
      warmUp.stop();
    } finally {
      warmUp.destroy();
    }
    if (!Files.isRegularFile(archive) || Files.size(archive) == 0) {
      LOG.warn("no CDS archive was dumped, daemons start without: {}", warmUp.output());
      return plain();
    }
    return new CrashJvm(classPath, with("-XX:SharedArchiveFile=" + archive));
  }

  private static List<String> with(String option) {
    List<String> all = new ArrayList<>(FAST_START);
    all.add(option);
    return all;
  }
}
