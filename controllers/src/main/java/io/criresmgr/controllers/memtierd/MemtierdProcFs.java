package io.criresmgr.controllers.memtierd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** Reads process command lines from a proc file system to recognise a memtierd process. */
final class MemtierdProcFs {
  private final Path root;

  MemtierdProcFs(Path root) {
    this.root = Objects.requireNonNull(root, "root");
  }

  /** The command line of {@code pid}, empty if the process is gone or unreadable. */
  List<String> cmdline(long pid) {
    try {
      byte[] raw = Files.readAllBytes(root.resolve(Long.toString(pid)).resolve("cmdline"));
      String text = new String(raw, StandardCharsets.UTF_8);
      if (text.endsWith("\0")) {
        text = text.substring(0, text.length() - 1);
      }
      return text.isEmpty() ? List.of() : Arrays.asList(text.split("\0", -1));
    } catch (IOException e) {
      return List.of();
    }
  }

  /**
   * Whether {@code pid} runs {@code expected}: its command line ends with {@code expected}'s
   * arguments (which name the container's own config file) and the word before them is the binary
   * (same path, or same file name; an interpreter such as {@code /bin/sh} may come first when the
   * binary is a script).
   */
  boolean matches(long pid, String binary, List<String> expected) {
    List<String> actual = cmdline(pid);
    List<String> args = expected.subList(1, expected.size());
    int start = actual.size() - args.size();
    if (start < 1 || !actual.subList(start, actual.size()).equals(args)) {
      return false;
    }
    return fileName(actual.get(start - 1)).equals(fileName(binary));
  }

  private static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
