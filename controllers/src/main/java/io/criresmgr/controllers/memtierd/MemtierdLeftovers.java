package io.criresmgr.controllers.memtierd;

import io.criresmgr.cache.files.FileLimit;
import io.criresmgr.cache.files.SafeFiles;
import io.criresmgr.controllers.ControllerContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A note in the daemon's state directory of the binary and run directory memtierd processes were
 * started with. memtierd outlives the daemon on purpose; a later daemon that does not run the
 * controller (section removed, controller disabled, start refused) reads the note and stops them,
 * so that none is left without its controller.
 */
final class MemtierdLeftovers {
  /** The note's file name in the state directory. */
  static final String FILE = "memtierd-processes";

  private static final Logger LOG = LoggerFactory.getLogger(MemtierdLeftovers.class);

  private MemtierdLeftovers() {}

  /** Notes that processes of {@code config} may run; a daemon without a state directory cannot. */
  static void note(ControllerContext context, MemtierdConfig config) {
    Optional<Path> dir = context.stateDirectory();
    if (dir.isEmpty()) {
      return;
    }
    try {
      Files.createDirectories(dir.get());
      MemtierdFileOps.writeAtomically(
          dir.get().resolve(FILE), config.binary() + "\n" + config.runDir() + "\n");
    } catch (IOException e) {
      LOG.warn("cannot note the memtierd run directory in {}: {}", dir.get(), e.toString());
    }
  }

  /** Removes the note: no process runs any more. */
  static void forget(ControllerContext context) {
    context.stateDirectory().ifPresent(MemtierdLeftovers::delete);
  }

  /** Stops every process the note names and removes the note; returns how many were stopped. */
  static int release(ControllerContext context) {
    Optional<Path> dir = context.stateDirectory();
    if (dir.isEmpty()) {
      return 0;
    }
    List<String> lines;
    try {
      lines =
          SafeFiles.readUtf8In(dir.get(), dir.get().resolve(FILE), FileLimit.SMALL)
              .lines()
              .toList();
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      // Not a regular file, too large, not text: nothing to stop, and the note is replaced.
      LOG.warn("ignoring and removing {}: {}", dir.get().resolve(FILE), e.getMessage());
      delete(dir.get());
      return 0;
    }
    int stopped = 0;
    if (lines.size() >= 2) {
      stopped =
          new MemtierdProcesses(lines.get(0), Path.of(lines.get(1))).reconcile(List.of()).size();
      LOG.info(
          "stopped {} memtierd process(es) left by an earlier run in {}", stopped, lines.get(1));
    }
    delete(dir.get());
    return stopped;
  }

  private static void delete(Path dir) {
    try {
      Files.deleteIfExists(dir.resolve(FILE));
    } catch (IOException e) {
      LOG.warn("cannot remove {}: {}", dir.resolve(FILE), e.toString());
    }
  }
}
