package io.criresmgr.controllers.memtierd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * A fake memtierd: a shell script that copies its config file to {@code config.<pid>} and records
 * its arguments in {@code args.<pid>} next to itself, writes to stdout and stderr, and sleeps in a
 * child process.
 */
final class FakeMemtierd {
  private static final String SCRIPT =
      """
      #!/bin/sh
      dir=$(dirname "$0")
      cp "$4" "$dir/config.$$"
      printf '%s\\n' "$@" > "$dir/args.$$"
      echo "fake memtierd started"
      echo "fake memtierd stderr" >&2
      sleep 300 &
      wait
      """;

  private final Path dir;
  private final Path binary;

  private FakeMemtierd(Path dir) {
    this.dir = dir;
    this.binary = dir.resolve("memtierd");
  }

  /** Writes the script as {@code <dir>/memtierd}, creating {@code dir}. */
  static FakeMemtierd install(Path dir) throws IOException {
    FakeMemtierd fake = new FakeMemtierd(Files.createDirectories(dir));
    Files.writeString(fake.binary, SCRIPT);
    Files.setPosixFilePermissions(fake.binary, PosixFilePermissions.fromString("rwx------"));
    return fake;
  }

  /** The script's path. */
  Path binary() {
    return binary;
  }

  /** The arguments {@code pid} was started with, once it recorded them. */
  List<String> args(long pid) throws IOException {
    Path args = dir.resolve("args." + pid);
    waitFor(() -> args.toFile().length() > 0);
    return Files.readAllLines(args);
  }

  /** The configuration {@code pid} was started with, once it recorded its arguments. */
  String config(long pid) throws IOException {
    args(pid);
    return Files.readString(dir.resolve("config." + pid));
  }

  /** How many processes were started. */
  long started() throws IOException {
    return startedPids().size();
  }

  /** Kills every process of this script the JVM started, and their children. */
  void killAll() {
    ProcessHandle.current()
        .children()
        .filter(h -> h.info().commandLine().orElse("").contains(binary.toString()))
        .forEach(
            h ->
                Stream.concat(Stream.of(h), h.descendants())
                    .forEach(ProcessHandle::destroyForcibly));
  }

  private List<Long> startedPids() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("args."))
          .map(n -> Long.parseLong(n.substring("args.".length())))
          .toList();
    }
  }

  /** Whether {@code pid} is a live process. */
  static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Waits up to 10 s for {@code pid} to exit (stop does not wait for it). */
  static void waitForExit(long pid) {
    waitFor(() -> !alive(pid));
  }

  /** The pid in {@code file}. */
  static long pidIn(Path file) {
    try {
      return Long.parseLong(Files.readString(file).strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits up to 10 s for {@code condition}. */
  static void waitFor(BooleanSupplier condition) {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("condition not met within 10 s");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
