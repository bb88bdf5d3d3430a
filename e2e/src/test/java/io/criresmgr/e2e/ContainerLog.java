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

  /** The log file's whole content, empty while it does not exist (on whichever node it is). */
  @FunctionalInterface
  interface Source {
    String read() throws IOException;
  }

  /** As {@link #awaitMessages(Source, String)} for a file on this host. */
  static List<String> awaitMessages(Path file, String expected)
      throws IOException, InterruptedException {
    return awaitMessages(
        () -> Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "", expected);
  }

  /**
   * Waits until the log holds a line whose message is {@code expected}, then returns every line
   * without its timestamp ({@code "stdout F hello-e2e"}). Returns what is there after the wait.
   */
  static List<String> awaitMessages(Source file, String expected)
      throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    List<String> lines = messages(file.read());
    while (lines.stream().noneMatch(l -> l.endsWith(" " + expected))
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
      lines = messages(file.read());
    }
    return lines;
  }

  private static List<String> messages(String content) {
    return Arrays.stream(content.split("\n"))
        .filter(l -> !l.isEmpty())
        .map(l -> l.substring(l.indexOf(' ') + 1))
        .toList();
  }
}
