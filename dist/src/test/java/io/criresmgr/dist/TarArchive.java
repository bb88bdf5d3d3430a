package io.criresmgr.dist;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;

/**
 * The entries of a gzip-compressed POSIX tar archive, read whole. The JDK has no tar reader and the
 * distribution is small; this reads what maven-assembly-plugin writes: ustar headers and pax
 * extended headers ({@code x}) that carry long paths.
 */
final class TarArchive {
  private static final int BLOCK = 512;

  /** One file or directory of the archive. */
  @SuppressWarnings("ArrayRecordComponent") // entries are read, never compared
  record Entry(String name, char type, int mode, long uid, long gid, long mtime, byte[] content) {
    boolean isFile() {
      return type == '0' || type == '\0';
    }
  }

  private TarArchive() {}

  static List<Entry> read(Path tarGz) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(tarGz))) {
      List<Entry> entries = new ArrayList<>();
      @Nullable String paxPath = null;
      for (byte[] header = in.readNBytes(BLOCK); !isEnd(header); header = in.readNBytes(BLOCK)) {
        char type = (char) header[156];
        byte[] content = readPadded(in, octal(header, 124, 12));
        if (type == 'x') {
          paxPath = paxValue(content, "path");
          continue;
        }
        String name = paxPath != null ? paxPath : name(header);
        entries.add(entry(header, name, type, content));
        paxPath = null;
      }
      return entries;
    }
  }

  private static Entry entry(byte[] header, String name, char type, byte[] content) {
    return new Entry(
        name,
        type,
        (int) octal(header, 100, 8),
        octal(header, 108, 8),
        octal(header, 116, 8),
        octal(header, 136, 12),
        content);
  }

  private static boolean isEnd(byte[] header) {
    return header.length < BLOCK || header[0] == 0;
  }

  private static byte[] readPadded(InputStream in, long size) throws IOException {
    byte[] content = in.readNBytes((int) size);
    in.skipNBytes((BLOCK - size % BLOCK) % BLOCK);
    return content;
  }

  /** The ustar name: prefix (offset 345) and name (offset 0), each NUL-terminated. */
  private static String name(byte[] header) {
    String prefix = string(header, 345, 155);
    String name = string(header, 0, 100);
    return prefix.isEmpty() ? name : prefix + "/" + name;
  }

  /** A pax record list: lines "LENGTH KEY=VALUE\n". */
  private static @Nullable String paxValue(byte[] records, String key) {
    for (String line : new String(records, StandardCharsets.UTF_8).split("\n", -1)) {
      String record = line.substring(line.indexOf(' ') + 1);
      if (record.startsWith(key + "=")) {
        return record.substring(key.length() + 1);
      }
    }
    return null;
  }

  private static long octal(byte[] header, int offset, int length) {
    String digits = string(header, offset, length).trim();
    return digits.isEmpty() ? 0 : Long.parseLong(digits, 8);
  }

  private static String string(byte[] header, int offset, int length) {
    int end = offset;
    while (end < offset + length && header[end] != 0) {
      end++;
    }
    return new String(header, offset, end - offset, StandardCharsets.UTF_8);
  }
}
