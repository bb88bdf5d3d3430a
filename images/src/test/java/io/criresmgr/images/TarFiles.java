package io.criresmgr.images;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the small regular files of a tar archive (ustar, with PAX headers skipped), enough for the
 * index, manifests and configs of an OCI image tarball; larger entries (the layers) are skipped.
 */
final class TarFiles {
  private static final int BLOCK = 512;

  private TarFiles() {}

  /** The regular files of at most {@code maxSize} bytes, by name. */
  static Map<String, byte[]> small(Path tarball, int maxSize) throws IOException {
    Map<String, byte[]> files = new HashMap<>();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(tarball))) {
      for (byte[] header = in.readNBytes(BLOCK); !isEnd(header); header = in.readNBytes(BLOCK)) {
        long size = Long.parseLong(field(header, 124, 12).trim(), 8);
        boolean wanted = isRegular(header) && size <= maxSize;
        if (wanted) {
          files.put(name(header), readFully(in, (int) size));
        } else {
          in.skipNBytes(size);
        }
        in.skipNBytes(padding(size));
      }
    }
    return files;
  }

  private static boolean isEnd(byte[] header) {
    if (header.length < BLOCK) {
      throw new IllegalStateException("truncated tar archive: a header of " + header.length);
    }
    return header[0] == 0;
  }

  private static boolean isRegular(byte[] header) {
    return header[156] == '0' || header[156] == 0;
  }

  private static String name(byte[] header) {
    String prefix = field(header, 345, 155);
    String name = field(header, 0, 100);
    return prefix.isEmpty() ? name : prefix + "/" + name;
  }

  private static String field(byte[] header, int offset, int length) {
    int end = offset;
    while (end < offset + length && header[end] != 0) {
      end++;
    }
    return new String(header, offset, end - offset, StandardCharsets.UTF_8);
  }

  private static byte[] readFully(InputStream in, int size) throws IOException {
    byte[] data = in.readNBytes(size);
    if (data.length != size) {
      throw new EOFException("tar entry cut short: " + data.length + " of " + size + " bytes");
    }
    return data;
  }

  private static long padding(long size) {
    return (BLOCK - size % BLOCK) % BLOCK;
  }
}
