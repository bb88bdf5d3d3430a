package io.criresmgr.controllers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Writes to kernel interface files (cgroupfs, resctrl) the way the kernel parses them. */
public final class KernelFiles {
  private KernelFiles() {}

  /**
   * Writes {@code line} and a newline to the existing {@code file} in one {@code write(2)}: files
   * such as {@code blkio.throttle.*}, {@code io.max} or resctrl's {@code tasks} take one setting or
   * task per write. Never creates the file.
   *
   * @throws IOException if the file does not exist or the kernel refuses the line
   */
  public static void writeLine(Path file, String line) throws IOException {
    Files.writeString(
        file,
        line + "\n",
        StandardCharsets.US_ASCII,
        StandardOpenOption.WRITE,
        StandardOpenOption.APPEND);
  }
}
