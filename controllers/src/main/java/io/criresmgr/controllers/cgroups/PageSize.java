package io.criresmgr.controllers.cgroups;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel's page size and what it does to byte values of cgroup memory files: {@code
 * memory.max}, {@code memory.high}, {@code memory.swap.max} (and v1 {@code memory.limit_in_bytes})
 * are kept in whole pages, rounding down, so {@code 50000000} reads back as {@code 49999872} with 4
 * KiB pages. Comparing textually would write such a value again at every start, and writing {@code
 * memory.high} below the cgroup's usage makes the writer reclaim the container's memory at once
 * (the kernel's memory_high_write), on top of the reclaim the container does itself.
 */
public final class PageSize {
  private static final long AT_PAGESZ = 6;
  private static final long FALLBACK = 4096;
  private static final Set<String> PAGE_FILES =
      Set.of(
          "memory.min",
          "memory.low",
          "memory.high",
          "memory.max",
          "memory.swap.max",
          "memory.zswap.max",
          "memory.limit_in_bytes",
          "memory.memsw.limit_in_bytes",
          "memory.soft_limit_in_bytes");
  // the kernel's memparse(): a number and an optional binary suffix
  private static final Pattern BYTES = Pattern.compile("([0-9]{1,19})([kKmMgGtTpPeE]?)");
  private static final String SUFFIXES = "kmgtpe";

  private static final long HOST = fromAuxv(Path.of("/proc/self/auxv"));

  private PageSize() {}

  /** This host's page size ({@code AT_PAGESZ} of /proc/self/auxv; 4096 if unreadable). */
  public static long host() {
    return HOST;
  }

  /**
   * What the kernel shows in file {@code name} after {@code value} was written to it, if it is a
   * page-granular memory file and the value a number of bytes (with the kernel's {@code K}, {@code
   * M}, {@code G}, ... suffixes); empty otherwise.
   */
  public static Optional<String> roundedAsKernelShows(String name, String value, long pageSize) {
    Matcher m = BYTES.matcher(value.strip());
    if (!PAGE_FILES.contains(name) || !m.matches()) {
      return Optional.empty();
    }
    try {
      long bytes = Long.parseLong(m.group(1));
      int shift = m.group(2).isEmpty() ? 0 : 10 * (1 + SUFFIXES.indexOf(lower(m.group(2))));
      if (shift > 0 && bytes > (Long.MAX_VALUE >> shift)) {
        return Optional.empty();
      }
      return Optional.of(Long.toString((bytes << shift) / pageSize * pageSize));
    } catch (NumberFormatException e) {
      return Optional.empty(); // more than a long: the kernel says max or refuses it
    }
  }

  private static String lower(String s) {
    return s.toLowerCase(java.util.Locale.ROOT);
  }

  /** {@code AT_PAGESZ} from an auxiliary vector file (pairs of native 64-bit words). */
  static long fromAuxv(Path auxv) {
    try {
      ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(auxv)).order(ByteOrder.nativeOrder());
      while (b.remaining() >= 16) {
        long type = b.getLong();
        long value = b.getLong();
        if (type == AT_PAGESZ && value > 0) {
          return value;
        }
      }
      return FALLBACK;
    } catch (IOException e) {
      return FALLBACK;
    }
  }
}
