package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Reads a container log file in the CRI format: {@code <time> <stream> <tag> <message>}. */
final class ContainerLog {
  private static final long WAIT_MILLIS = 10_000;

  private ContainerLog() {}

  /**
   * Waits until the log holds a line whose message is {@code expected}, then returns every line
   * without its timestamp ({@code "stdout F hello-e2e"}). Returns what is there after the wait.
   */
  static List<String> awaitMessages(Path file, String expected)
      throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    List<String> lines = read(file);
    while (lines.stream().noneMatch(l -> l.endsWith(" " + expected))
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
      lines = read(file);
    }
    return lines;
  }

  private static List<String> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    return Arrays.stream(Files.readString(file, StandardCharsets.UTF_8).split("\n"))
        .filter(l -> !l.isEmpty())
        .map(l -> l.substring(l.indexOf(' ') + 1))
        .toList();
  }
}
