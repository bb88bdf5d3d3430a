package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the bed's shell scripts and collects the {@code KEY=VALUE} lines it prints.
 *
 * <p>Both output streams go to files rather than to this JVM's streams: the test runner's forked
 * JVM talks to Maven over its own stdout, which a child process must not write into.
 */
final class BedScript {
  private final Path script;
  private final Path logDir;
  private final Map<String, String> env;
  private final List<String> args;

  /** A script and the directory its output files go to. */
  BedScript(Path script, Path logDir) {
    this(script, logDir, Map.of());
  }

  /** A script run with {@code env} added to this JVM's environment. */
  BedScript(Path script, Path logDir, Map<String, String> env) {
    this(script, logDir, env, List.of());
  }

  private BedScript(Path script, Path logDir, Map<String, String> env, List<String> args) {
    this.script = Objects.requireNonNull(script, "script");
    this.logDir = Objects.requireNonNull(logDir, "logDir");
    this.env = Map.copyOf(env);
    this.args = List.copyOf(args);
  }

  /** The same script, run with {@code args}. */
  BedScript withArgs(String... args) {
    return new BedScript(script, logDir, env, List.of(args));
  }

  /** What a finished script printed. */
  record Result(int exitCode, Map<String, String> values, String stderr) {
    Result {
      values = Map.copyOf(values);
      Objects.requireNonNull(stderr, "stderr");
    }
  }

  /** Runs the script to completion, killing it after {@code timeout}. */
  Result run(Duration timeout) throws IOException, InterruptedException {
    Files.createDirectories(logDir);
    String name = script.getFileName().toString().replace(".sh", "");
    Path out = logDir.resolve(name + ".out");
    Path err = logDir.resolve(name + ".err");
    List<String> command = new ArrayList<>(List.of("bash", script.toString()));
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    Process p =
        builder
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor();
      return new Result(-1, Map.of(), "timed out after " + timeout + "\n" + read(err));
    }
    return new Result(p.exitValue(), parse(read(out)), read(err));
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  private static Map<String, String> parse(String stdout) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String line : stdout.lines().toList()) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        values.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return values;
  }
}
