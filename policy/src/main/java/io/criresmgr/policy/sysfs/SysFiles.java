package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads sysfs files; every failure is a {@link PolicyException} whose message starts with the file.
 */
final class SysFiles {
  private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

  private SysFiles() {}

  /** The trimmed content of {@code file}. */
  static String read(Path file) {
    String text = readOptional(file);
    if (text == null) {
      throw new PolicyException(file + ": missing");
    }
    return text;
  }

  /** The trimmed content of {@code file}, or null if it does not exist. */
  static @Nullable String readOptional(Path file) {
    try {
      return Files.readString(file).trim();
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new PolicyException(file + ": cannot read: " + e, e);
    }
  }

  /** {@code file} as a (possibly negative) integer. */
  static int readInt(Path file) {
    return parseInt(file, read(file));
  }

  /** {@code text}, read from {@code file}, as an integer. */
  static int parseInt(Path file, String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw malformed(file, "expected an integer, got \"" + text + "\"");
    }
  }

  /** {@code file} as a non-negative long, or 0 if the file does not exist. */
  static long readOptionalLong(Path file) {
    String text = readOptional(file);
    if (text == null) {
      return 0;
    }
    try {
      return Math.max(0, Long.parseLong(text));
    } catch (NumberFormatException e) {
      throw malformed(file, "expected an integer, got \"" + text + "\"");
    }
  }

  /** {@code file} as a CPU or node list. */
  static CpuSet readList(Path file) {
    return parseList(file, read(file));
  }

  /** {@code file} as a CPU or node list; a missing or empty file is the empty set. */
  static CpuSet readOptionalList(Path file) {
    String text = readOptional(file);
    return text == null ? CpuSet.EMPTY : parseList(file, text);
  }

  private static CpuSet parseList(Path file, String text) {
    try {
      return CpuSet.parse(text);
    } catch (IllegalArgumentException e) {
      throw malformed(file, Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  /** The ids {@code N} of the entries {@code <prefix>N} in {@code dir}, ascending. */
  static List<Integer> numberedEntries(Path dir, String prefix) {
    Pattern pattern =
        PATTERNS.computeIfAbsent(prefix, p -> Pattern.compile(Pattern.quote(p) + "([0-9]+)"));
    List<Integer> ids = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        Matcher m = pattern.matcher(entry.getFileName().toString());
        if (m.matches()) {
          ids.add(Integer.parseInt(m.group(1)));
        }
      }
    } catch (IOException e) {
      throw new PolicyException(dir + ": cannot list: " + e, e);
    }
    Collections.sort(ids);
    return ids;
  }

  /** An error about the content of {@code file}. */
  static PolicyException malformed(Path file, String why) {
    return new PolicyException(file + ": " + why);
  }
}
