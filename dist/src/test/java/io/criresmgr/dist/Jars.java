package io.criresmgr.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/** Reads jars held in memory (entries of the distribution archive). */
final class Jars {
  private Jars() {}

  /** The files directly under META-INF/, by name. */
  static Map<String, byte[]> metaInf(byte[] jar) throws IOException {
    Map<String, byte[]> files = new HashMap<>();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(jar))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        String name = e.getName();
        if (name.startsWith("META-INF/") && name.indexOf('/', 9) < 0 && !e.isDirectory()) {
          files.put(name.substring(9), in.readAllBytes());
        }
      }
    }
    return files;
  }

  /**
   * Asserts that every entry's modification time is {@code time}. Zip entries hold a local date and
   * time without a zone; Maven writes the output timestamp's UTC fields there on every machine.
   */
  static void assertEntryTimes(byte[] jar, Instant time, String jarName) throws IOException {
    LocalDateTime utc = LocalDateTime.ofInstant(time, ZoneOffset.UTC);
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(jar))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        assertEquals(utc, e.getTimeLocal(), jarName + "!" + e.getName());
      }
    }
  }
}
