package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the caches of the online CPUs, {@code cpu<N>/cache/index<I>/{level,type,shared_cpu_list}}.
 * A CPU without a {@code cache} directory (some virtual machines, some architectures) has no known
 * caches; an index without {@code shared_cpu_list} is skipped. Each cache is reported once.
 */
final class CacheReader {
  private CacheReader() {}

  /** The distinct caches of the {@code online} CPUs below {@code cpuDir}. */
  static List<CpuCache> read(Path cpuDir, CpuSet online) {
    Set<CpuCache> caches = new LinkedHashSet<>();
    online.stream()
        .forEach(
            id -> {
              Path dir = cpuDir.resolve("cpu" + id).resolve("cache");
              if (Files.isDirectory(dir)) {
                for (int index : SysFiles.numberedEntries(dir, "index")) {
                  read(dir.resolve("index" + index), online, caches);
                }
              }
            });
    return new ArrayList<>(caches);
  }

  private static void read(Path index, CpuSet online, Set<CpuCache> into) {
    Path list = index.resolve("shared_cpu_list");
    if (SysFiles.readOptional(list) == null) {
      return;
    }
    CpuSet cpus = SysFiles.readList(list).intersection(online);
    if (cpus.isEmpty()) {
      throw SysFiles.malformed(list, "names no online CPU");
    }
    Path levelFile = index.resolve("level");
    int level = SysFiles.readInt(levelFile);
    if (level < 1) {
      throw SysFiles.malformed(levelFile, "level " + level + ", expected 1 or more");
    }
    into.add(new CpuCache(level, type(index.resolve("type")), cpus));
  }

  private static CpuCache.Type type(Path file) {
    String text = SysFiles.read(file);
    for (CpuCache.Type t : CpuCache.Type.values()) {
      if (t.label().equals(text)) {
        return t;
      }
    }
    throw SysFiles.malformed(file, "\"" + text + "\", expected Data, Instruction or Unified");
  }
}
