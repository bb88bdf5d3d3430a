package io.criresmgr.cache;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * The cache journal's framing (docs/cache-format.md, "The journal"): one line per batch,
 *
 * <pre>
 * &lt;generation&gt; &lt;length&gt; &lt;crc32&gt; &lt;batch&gt;\n
 * </pre>
 *
 * with the generation of the snapshot the batch applies to, the batch's length in bytes and its
 * CRC-32 as 8 lowercase hex digits, so a frame torn by a crash, or damaged, is recognised.
 */
final class JournalFrames {
  private static final int MAX_DIGITS = 18;

  private JournalFrames() {}

  /** The frame of {@code batch} (compact JSON, no line break) for snapshot {@code generation}. */
  static byte[] frame(long generation, byte[] batch) {
    byte[] header =
        (generation + " " + batch.length + " " + hex8(crc(batch)) + " ").getBytes(US_ASCII);
    byte[] frame = Arrays.copyOf(header, header.length + batch.length + 1);
    System.arraycopy(batch, 0, frame, header.length, batch.length);
    frame[frame.length - 1] = '\n';
    return frame;
  }

  /**
   * The complete frames of {@code content}, up to the first that is incomplete or damaged.
   *
   * @param frames the frames read, in order
   * @param validBytes how many bytes they take; the rest, if any, was dropped
   */
  record Contents(List<Frame> frames, int validBytes) {
    Contents {
      frames = List.copyOf(frames);
    }

    /** The highest generation a frame names, or -1 if there is none. */
    long highestGeneration() {
      return frames.stream().mapToLong(Frame::generation).max().orElse(-1);
    }
  }

  /** One frame: the batch for the snapshot of {@code generation}. */
  static final class Frame {
    private final long generation;
    private final byte[] batch;

    Frame(long generation, byte[] batch) {
      this.generation = generation;
      this.batch = Objects.requireNonNull(batch, "batch");
    }

    long generation() {
      return generation;
    }

    /** The batch's bytes (not copied: frames are read once). */
    byte[] batch() {
      return batch;
    }
  }

  /** Reads the frames of a journal's {@code content}. */
  static Contents read(byte[] content) {
    List<Frame> frames = new ArrayList<>();
    int at = 0;
    while (at < content.length) {
      long[] header = header(content, at);
      if (header.length == 0) {
        break;
      }
      int start = (int) header[3];
      int end = start + (int) header[1];
      frames.add(new Frame(header[0], Arrays.copyOfRange(content, start, end)));
      at = end + 1;
    }
    return new Contents(frames, at);
  }

  /**
   * The generation, length, CRC and batch offset of a complete, undamaged frame at {@code at}, or
   * an empty array.
   */
  private static long[] header(byte[] content, int at) {
    long[] header = new long[4];
    int pos = at;
    for (int i = 0; i < 3; i++) {
      int start = pos;
      while (pos < content.length && content[pos] != ' ' && pos - start < MAX_DIGITS) {
        pos++;
      }
      if (pos >= content.length || content[pos] != ' ' || pos == start) {
        return new long[0];
      }
      header[i] = i == 2 ? hex(content, start, pos) : decimal(content, start, pos);
      if (header[i] < 0) {
        return new long[0];
      }
      pos++;
    }
    header[3] = pos;
    long length = header[1];
    if (length > content.length - pos - 1L
        || content[pos + (int) length] != '\n'
        || crc(content, pos, (int) length) != header[2]) {
      return new long[0];
    }
    return header;
  }

  // -1 unless the bytes are decimal digits
  private static long decimal(byte[] content, int start, int end) {
    long value = 0;
    for (int i = start; i < end; i++) {
      if (content[i] < '0' || content[i] > '9') {
        return -1;
      }
      value = value * 10 + (content[i] - '0');
    }
    return value;
  }

  // -1 unless the bytes are 8 lowercase hex digits
  private static long hex(byte[] content, int start, int end) {
    if (end - start != 8) {
      return -1;
    }
    long value = 0;
    for (int i = start; i < end; i++) {
      int digit = Character.digit(content[i], 16);
      if (digit < 0 || (content[i] >= 'A' && content[i] <= 'F')) {
        return -1;
      }
      value = value * 16 + digit;
    }
    return value;
  }

  /**
   * {@code value} (at most 32 bits) as 8 lowercase hex digits; {@code String.format} took a seventh
   * of the cache saver's time (docs/benchmarks.md, "Issue 20: idle wake-ups").
   */
  static String hex8(long value) {
    String hex = Long.toHexString(value);
    return "00000000".substring(hex.length()) + hex;
  }

  private static long crc(byte[] batch) {
    return crc(batch, 0, batch.length);
  }

  private static long crc(byte[] content, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(content, offset, length);
    return crc.getValue();
  }
}
