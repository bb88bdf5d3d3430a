package io.criresmgr.images;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A finished command: its exit status and its output (stdout and stderr, interleaved). */
record CommandResult(List<String> command, int exitCode, String output) {

  /**
   * Runs {@code command}, its output going to {@code log}; a command still running after {@code
   * timeout} is killed and reported as exit code -1.
   */
  static CommandResult run(Duration timeout, Path log, List<String> command)
      throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    int exitCode = -1;
    if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      exitCode = process.exitValue();
    } else {
      process.destroyForcibly().waitFor();
    }
    return new CommandResult(command, exitCode, Files.readString(log, StandardCharsets.UTF_8));
  }

  /** This result, or an {@link IllegalStateException} with the command and output if it failed. */
  CommandResult orThrow() {
    if (exitCode != 0) {
      throw new IllegalStateException(
          String.join(" ", command) + " exited with " + exitCode + ":\n" + output);
    }
    return this;
  }
}
