package io.criresmgr.controllers.memtierd;

import io.criresmgr.controllers.ControllerException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One memtierd process per managed container, started as {@code <binary> -c "" -config
 * <dir>/memtierd.config.yaml} (the original plugin's arguments) with stdout and stderr in {@code
 * <dir>/memtierd.output} and its pid in {@code <dir>/memtierd.pid}. Unlike the original, whose
 * process table lived only in memory, a restarted daemon finds its processes again from the pid
 * files ({@link #adopt}, {@link #reconcile}), so there is never an orphan or a duplicate. Thread
 * safe.
 */
public final class MemtierdProcesses {
  private static final Logger LOG = LoggerFactory.getLogger(MemtierdProcesses.class);
  private static final long STOP_TIMEOUT_SECONDS = 10;

  private final String binary;
  private final Path runDir;
  private final MemtierdProcFs proc;
  private final Map<MemtierdContainer, ProcessHandle> running = new HashMap<>();

  /** Processes of {@code binary} with output directories under {@code runDir}. */
  public MemtierdProcesses(String binary, Path runDir) {
    this(binary, runDir, Path.of("/proc"));
  }

  /** As {@link #MemtierdProcesses(String, Path)}, reading command lines under {@code procRoot}. */
  public MemtierdProcesses(String binary, Path runDir, Path procRoot) {
    this.binary = Objects.requireNonNull(binary, "binary");
    this.runDir = Objects.requireNonNull(runDir, "runDir");
    this.proc = new MemtierdProcFs(procRoot);
  }

  /** Processes as {@code config} says (binary and run dir). */
  public static MemtierdProcesses of(MemtierdConfig config) {
    return new MemtierdProcesses(config.binary(), config.runDir());
  }

  /** The files of {@code container}. */
  public MemtierdFiles files(MemtierdContainer container) {
    return MemtierdFiles.of(runDir, container);
  }

  /**
   * Starts memtierd for {@code container} with {@code template} rendered for {@code cgroupDir} (see
   * {@link MemtierdTemplate}), unless one is already running for it (tracked or adoptable).
   *
   * @return the process id
   * @throws ControllerException if the files cannot be written or the process cannot start
   */
  public synchronized long start(MemtierdContainer container, String template, String cgroupDir) {
    Optional<Long> existing = adopt(container);
    if (existing.isPresent()) {
      LOG.debug("memtierd of {} already runs as pid {}", container, existing.get());
      return existing.get();
    }
    MemtierdFiles files = files(container);
    try {
      MemtierdFileOps.prepareDir(runDir, files.dir());
      MemtierdFileOps.writeAtomically(
          files.config(), MemtierdTemplate.render(template, cgroupDir, files));
      Process p = launch(files);
      MemtierdFileOps.writeAtomically(files.pid(), p.pid() + "\n");
      running.put(container, p.toHandle());
      LOG.info("started memtierd for {} as pid {} with {}", container, p.pid(), files.config());
      return p.pid();
    } catch (IOException e) {
      throw new ControllerException(
          "failed to start memtierd for " + container + " in " + files.dir() + ": " + e, e);
    }
  }

  private Process launch(MemtierdFiles files) throws IOException {
    return new ProcessBuilder(arguments(files))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(files.output().toFile())
        .start();
  }

  /** The command line memtierd is started with for {@code files}. */
  public List<String> arguments(MemtierdFiles files) {
    return List.of(binary, "-c", "", "-config", files.config().toString());
  }

  /**
   * The running memtierd of {@code container}: the tracked one, or the process named by its pid
   * file if {@code /proc/<pid>/cmdline} shows this binary with this container's arguments (a pid
   * reused by another process is not adopted).
   */
  public synchronized Optional<Long> adopt(MemtierdContainer container) {
    ProcessHandle tracked = running.get(container);
    if (tracked != null && tracked.isAlive()) {
      return Optional.of(tracked.pid());
    }
    running.remove(container);
    MemtierdFiles files = files(container);
    Optional<ProcessHandle> found =
        MemtierdFileOps.readPid(files.pid())
            .filter(pid -> proc.matches(pid, binary, arguments(files)))
            .flatMap(ProcessHandle::of)
            .filter(ProcessHandle::isAlive);
    found.ifPresent(
        h -> {
          running.put(container, h);
          LOG.info("adopted memtierd of {} running as pid {}", container, h.pid());
        });
    return found.map(ProcessHandle::pid);
  }

  /** The containers with a tracked, live memtierd. */
  public synchronized List<MemtierdContainer> managed() {
    running.values().removeIf(h -> !h.isAlive());
    return List.copyOf(running.keySet());
  }

  /**
   * Stops the memtierd of {@code container} (tracked or adoptable): kills its process tree with
   * SIGKILL and removes its output directory, as the original plugin does; returns without waiting
   * for the processes to exit (they cannot write any more).
   *
   * @return whether a process was stopped
   */
  public synchronized boolean stop(MemtierdContainer container) {
    Optional<Long> pid = adopt(container);
    ProcessHandle handle = running.remove(container);
    if (handle != null) {
      killTree(handle);
      LOG.info("stopped memtierd of {} (pid {})", container, handle.pid());
    }
    MemtierdFileOps.deleteTree(files(container).dir());
    return pid.isPresent();
  }

  /**
   * After a daemon restart: adopts every memtierd that has a pid file under the run dir and stops
   * those whose container is not in {@code live}.
   *
   * @return the containers whose memtierd keeps running
   */
  public synchronized List<MemtierdContainer> reconcile(Collection<MemtierdContainer> live) {
    List<MemtierdContainer> kept = new ArrayList<>();
    for (MemtierdContainer c : MemtierdFileOps.containersWithPidFiles(runDir)) {
      if (!live.contains(c)) {
        stop(c);
      } else if (adopt(c).isPresent()) {
        kept.add(c);
      }
    }
    return List.copyOf(kept);
  }

  /**
   * Sends SIGKILL to the process and its descendants without waiting: stop runs on the pipeline
   * thread, and waiting for a process that is not our child polls from 300 ms up. A process that
   * has not exited after {@value #STOP_TIMEOUT_SECONDS} s is logged.
   */
  private static void killTree(ProcessHandle handle) {
    List<ProcessHandle> tree = new ArrayList<>(handle.descendants().toList());
    tree.add(0, handle);
    // Kill the parent first so it cannot start new children while they are being killed.
    tree.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle h : tree) {
      // The callback reports a process that outlives the timeout; nobody waits for it.
      var unused =
          h.onExit()
              .orTimeout(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)
              .whenComplete(
                  (done, failure) -> {
                    if (failure != null) {
                      LOG.warn(
                          "memtierd process {} did not exit {} s after SIGKILL",
                          h.pid(),
                          STOP_TIMEOUT_SECONDS);
                    }
                  });
    }
  }
}
