package io.criresmgr.controllers.cgroups;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes cgroup files idempotently: the file is read first and not written when its content already
 * equals the value after {@link #normalize normalization} (surrounding whitespace removed, inner
 * runs of spaces and tabs collapsed to one space, so {@code "max 100000\n"} equals {@code "max
 * 100000"}). The comparison is textual: a value the kernel stores differently ({@code -1} read back
 * as a large number, an unsorted CPU list) is written again each time, which is harmless; the typed
 * helpers of {@link ContainerCgroupWriter} write canonical forms where the kernel has one and pass
 * the page-rounded form of memory values as equivalent, since writing {@code memory.high} again is
 * not harmless (see {@link PageSize}). Files are never created: a cgroup file that does not exist
 * is an error, and so is a value of more than one line (multi-line files such as {@code io.max}
 * take one line per write).
 */
public final class CgroupWriter {
  private static final Logger LOG = LoggerFactory.getLogger(CgroupWriter.class);

  /** A writer; it has no state. */
  public CgroupWriter() {}

  /**
   * Writes {@code value} (normalized, without a trailing newline) to {@code file} unless the file
   * already holds it.
   *
   * @return true if the file was written, false if it already held the value
   * @throws CgroupException naming the file, the value and the OS error if the write fails
   */
  public boolean write(Path file, String value) {
    String wanted = normalize(value);
    if (wanted.indexOf('\n') >= 0 || wanted.indexOf('\r') >= 0) {
      throw new CgroupException(
          "cannot write \""
              + value
              + "\" to "
              + file
              + ": more than one line, write one at a time");
    }
    if (wanted.equals(current(file, wanted))) {
      LOG.debug("{} already holds \"{}\"", file, wanted);
      return false;
    }
    try {
      Files.writeString(
          file,
          wanted,
          StandardCharsets.UTF_8,
          StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING);
    } catch (IOException e) {
      throw failure(file, wanted, e);
    }
    LOG.debug("wrote \"{}\" to {}", wanted, file);
    return true;
  }

  /**
   * Writes {@code value} to {@code file} unless the file already holds it or one of {@code
   * equivalent} (values that mean the same to whoever wrote them, e.g. another runtime's
   * conversion).
   *
   * @return true if the file was written
   * @throws CgroupException naming the file, the value and the OS error if the write fails
   */
  public boolean write(Path file, String value, java.util.Set<String> equivalent) {
    String now = current(file, normalize(value));
    if (now != null && equivalent.contains(now)) {
      LOG.debug("{} holds \"{}\", equivalent to \"{}\"", file, now, value);
      return false;
    }
    return write(file, value);
  }

  /** Surrounding whitespace removed and inner runs of spaces and tabs collapsed to one space. */
  public static String normalize(String value) {
    return value.strip().replaceAll("[ \t]+", " ");
  }

  /** The file's normalized content, or null if it cannot be read (then the write decides). */
  private static @Nullable String current(Path file, String wanted) {
    try {
      return normalize(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      throw failure(file, wanted, e);
    } catch (IOException e) {
      return null; // e.g. a write-only file: try the write, which reports any real error
    }
  }

  private static CgroupException failure(Path file, String value, IOException e) {
    return new CgroupException("cannot write \"" + value + "\" to " + file + ": " + osError(e), e);
  }

  /** The OS error text; NIO puts only the path into the message of some exceptions. */
  static String osError(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "No such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "Permission denied";
    }
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    return String.valueOf(e.getMessage());
  }
}
