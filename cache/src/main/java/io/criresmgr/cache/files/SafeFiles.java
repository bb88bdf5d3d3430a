package io.criresmgr.cache.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a file the daemon depends on without hanging or running out of memory: it must be a regular
 * file (a FIFO, socket, device or directory is refused, checked from its attributes before it is
 * opened, so a FIFO never blocks the reader) of at most {@link FileLimit#maxBytes()} (checked
 * before opening and again while reading, so a file that grows or is swapped for a device is cut
 * off).
 *
 * <p>A file named by the operator ({@link #read}) may be a symbolic link to any regular file, as a
 * ConfigMap mount's files are. A file in a state directory ({@link #readIn}) may only link to a
 * file inside that directory. The check and the open are separate steps: a FIFO put in place
 * between them can still block, which needs write access to the directory (root's, mode 0700).
 */
public final class SafeFiles {
  private SafeFiles() {}

  /**
   * The content of {@code file}, following symbolic links.
   *
   * @throws java.nio.file.NoSuchFileException if it (or a link's target) does not exist
   * @throws RefusedFileException if it is not a regular file or is larger than {@code limit}
   * @throws IOException if it cannot be read
   */
  public static byte[] read(Path file, FileLimit limit) throws IOException {
    return readRegular(file, file.toRealPath(), limit);
  }

  /**
   * The content of {@code file}, a file of the directory {@code dir}: a symbolic link must lead to
   * a file inside {@code dir}.
   *
   * @throws java.nio.file.NoSuchFileException if it (or a link's target) does not exist
   * @throws RefusedFileException if it is not a regular file, is larger than {@code limit} or links
   *     out of {@code dir}
   * @throws IOException if it cannot be read
   */
  public static byte[] readIn(Path dir, Path file, FileLimit limit) throws IOException {
    BasicFileAttributes attributes =
        Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    Path target = attributes.isSymbolicLink() ? linkInside(dir, file) : file;
    return readRegular(file, target, limit);
  }

  /** {@link #read} as strict UTF-8 text; malformed input is a {@link CharacterCodingException}. */
  public static String readUtf8(Path file, FileLimit limit) throws IOException {
    return utf8(read(file, limit));
  }

  /**
   * {@link #readIn} as strict UTF-8 text; malformed input is a {@link CharacterCodingException}.
   */
  public static String readUtf8In(Path dir, Path file, FileLimit limit) throws IOException {
    return utf8(readIn(dir, file, limit));
  }

  private static Path linkInside(Path dir, Path file) throws IOException {
    Path target = file.toRealPath();
    Path base = dir.toRealPath();
    if (!target.startsWith(base)) {
      throw new RefusedFileException(
          file, "is a symbolic link to " + target + ", outside the directory " + base);
    }
    return target;
  }

  private static byte[] readRegular(Path file, Path target, FileLimit limit) throws IOException {
    BasicFileAttributes attributes =
        Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isRegularFile()) {
      throw new RefusedFileException(file, kind(file, target) + ", not a regular file");
    }
    if (attributes.size() > limit.maxBytes()) {
      throw tooLarge(file, attributes.size() + " bytes", limit);
    }
    try (SeekableByteChannel channel =
            Files.newByteChannel(target, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        InputStream in = Channels.newInputStream(channel)) {
      byte[] content = in.readNBytes((int) limit.maxBytes() + 1);
      if (content.length > limit.maxBytes()) {
        throw tooLarge(file, "more than " + FileLimit.size(limit.maxBytes()), limit);
      }
      return content;
    }
  }

  private static RefusedFileException tooLarge(Path file, String size, FileLimit limit) {
    return new RefusedFileException(
        file,
        "is "
            + size
            + ", more than the "
            + FileLimit.size(limit.maxBytes())
            + " allowed for "
            + limit.what());
  }

  private static String kind(Path file, Path target) {
    String kind = FileKind.of(target);
    return file.equals(target) ? "is " + kind : "is a symbolic link to " + target + ", " + kind;
  }

  private static String utf8(byte[] content) throws CharacterCodingException {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(content))
        .toString();
  }
}
