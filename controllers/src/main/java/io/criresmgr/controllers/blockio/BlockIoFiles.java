package io.criresmgr.controllers.blockio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The cgroup file contents that put a container's cgroup into a class: pure functions from {@link
 * BlockIoParameters} (and the files' current contents, to reset what the class does not set) to
 * file name and the lines to write, each line one {@code write(2)}, in order. Files with nothing to
 * write are left out.
 *
 * <p>cgroup v1 (cri-resmgr's files): the default weight {@code N}, {@code MAJ:MIN N} per-device
 * weights and {@code MAJ:MIN V} throttles; a device set in the cgroup but not by the class is reset
 * with {@code MAJ:MIN 0}.
 *
 * <p>cgroup v2: {@code io.weight} gets {@code default N} with the weight converted by {@link
 * #v2Weight}, and {@code io.bfq.weight}, when BFQ is loaded, the unconverted {@code N} (as runc
 * writes it); a per-device weight {@code MAJ:MIN N} goes into the one of the two files that takes
 * it for that device ({@link V2WeightRoute}), or is reported as skipped; {@code MAJ:MIN default}
 * drops another class's device weight. {@code io.max} gets one line per throttled device with all
 * four keys, {@code max} for those the class leaves unset (or sets to 0, which cgroup v1 treats as
 * no limit), so a line replaces whatever limits the device had.
 */
public final class BlockIoFiles {
  /** cgroup v1 read bytes/s limits. */
  public static final String V1_READ_BPS = "blkio.throttle.read_bps_device";

  /** cgroup v1 write bytes/s limits. */
  public static final String V1_WRITE_BPS = "blkio.throttle.write_bps_device";

  /** cgroup v1 read operations/s limits. */
  public static final String V1_READ_IOPS = "blkio.throttle.read_iops_device";

  /** cgroup v1 write operations/s limits. */
  public static final String V1_WRITE_IOPS = "blkio.throttle.write_iops_device";

  /** cgroup v2 weights. */
  public static final String V2_WEIGHT = "io.weight";

  /** cgroup v2 BFQ weights (the file exists while the BFQ scheduler module is loaded). */
  public static final String V2_BFQ_WEIGHT = "io.bfq.weight";

  /** cgroup v2 limits. */
  public static final String V2_MAX = "io.max";

  /** The cgroup v2 files a class writes. */
  public static final List<String> V2_FILES = List.of(V2_WEIGHT, V2_BFQ_WEIGHT, V2_MAX);

  private BlockIoFiles() {}

  /** The cgroup v1 files a class writes, with {@code names}' weight files. */
  public static List<String> v1Files(V1WeightFiles names) {
    return List.of(
        names.weight(),
        names.weightDevice(),
        V1_READ_BPS,
        V1_WRITE_BPS,
        V1_READ_IOPS,
        V1_WRITE_IOPS);
  }

  /**
   * The current contents of those of {@code fileNames} that exist in {@code cgroupDir}, the {@code
   * current} argument of {@link #v1} and {@link #v2}.
   *
   * @throws UncheckedIOException naming the file that exists but cannot be read
   */
  public static Map<String, String> readCurrent(Path cgroupDir, List<String> fileNames) {
    Map<String, String> current = new LinkedHashMap<>();
    for (String name : fileNames) {
      Path file = cgroupDir.resolve(name);
      if (Files.isRegularFile(file)) {
        try {
          current.put(name, Files.readString(file));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + file, e);
        }
      }
    }
    return Collections.unmodifiableMap(current);
  }

  /**
   * cgroup v1 contents for {@code p}.
   *
   * @param names BFQ or plain weight file names, see {@link V1WeightFiles#detect}
   * @param current file name to its current content (absent: nothing to reset)
   */
  public static Map<String, List<String>> v1(
      BlockIoParameters p, V1WeightFiles names, Map<String, String> current) {
    Map<String, List<String>> files = new LinkedHashMap<>();
    p.weight().ifPresent(w -> files.put(names.weight(), List.of(Long.toString(w))));
    v1Devices(files, names.weightDevice(), p.weightDevice(), current);
    v1Devices(files, V1_READ_BPS, p.readBps(), current);
    v1Devices(files, V1_WRITE_BPS, p.writeBps(), current);
    v1Devices(files, V1_READ_IOPS, p.readIops(), current);
    v1Devices(files, V1_WRITE_IOPS, p.writeIops(), current);
    return Collections.unmodifiableMap(files);
  }

  private static void v1Devices(
      Map<String, List<String>> files,
      String name,
      SortedMap<DeviceNumber, Long> wanted,
      Map<String, String> current) {
    List<String> lines = new ArrayList<>();
    wanted.forEach((dev, value) -> lines.add(dev + " " + value));
    for (DeviceNumber dev : devicesIn(current.get(name))) {
      if (!wanted.containsKey(dev)) {
        lines.add(dev + " 0");
      }
    }
    if (!lines.isEmpty()) {
      files.put(name, List.copyOf(lines));
    }
  }

  /**
   * cgroup v2 contents for {@code p}, with each per-device weight in the file its {@link
   * V2WeightRoute} names and skipped when it names none.
   *
   * @param current file name ({@code io.weight}, {@code io.bfq.weight}, {@code io.max}) to its
   *     current content; {@code io.bfq.weight} is written only when present (BFQ is loaded)
   * @param routes where each device of {@link BlockIoParameters#weightDevice} takes its weight
   */
  public static V2Files v2(
      BlockIoParameters p,
      Map<String, String> current,
      Function<DeviceNumber, V2WeightRoute> routes) {
    Map<DeviceNumber, V2WeightRoute> routed = new TreeMap<>();
    p.weightDevice().keySet().forEach(d -> routed.put(d, routes.apply(d)));
    Map<String, List<String>> files = new LinkedHashMap<>();
    put(files, V2_WEIGHT, weights(WeightFile.IO_WEIGHT, p, routed, current.get(V2_WEIGHT)));
    if (current.containsKey(V2_BFQ_WEIGHT)) {
      put(files, V2_BFQ_WEIGHT, weights(WeightFile.BFQ, p, routed, current.get(V2_BFQ_WEIGHT)));
    }
    put(files, V2_MAX, v2Limits(p, current.get(V2_MAX)));
    List<V2Files.SkippedWeight> skipped = new ArrayList<>();
    routed.forEach(
        (d, r) -> {
          if (r.file().isEmpty()) {
            skipped.add(new V2Files.SkippedWeight(d, weightOf(p, d), r.reason()));
          }
        });
    return new V2Files(files, skipped);
  }

  /**
   * A cgroup v2 weight file: how it takes the default weight and the scale of device weights.
   * {@code io.bfq.weight} takes a bare number (every kernel with BFQ does) on the v1 scale, as runc
   * writes it.
   */
  private enum WeightFile {
    IO_WEIGHT(V2_WEIGHT) {
      @Override
      String defaultLine(long weight) {
        return "default " + v2Weight(weight);
      }

      @Override
      long scale(long weight) {
        return v2Weight(weight);
      }
    },
    BFQ(V2_BFQ_WEIGHT) {
      @Override
      String defaultLine(long weight) {
        return Long.toString(weight);
      }

      @Override
      long scale(long weight) {
        return weight;
      }
    };

    final String name;

    WeightFile(String name) {
      this.name = name;
    }

    abstract String defaultLine(long weight);

    abstract long scale(long weight);
  }

  /** The default, the devices routed to {@code f}, and resets of other devices listed there. */
  private static List<String> weights(
      WeightFile f,
      BlockIoParameters p,
      Map<DeviceNumber, V2WeightRoute> routed,
      @Nullable String current) {
    List<String> lines = new ArrayList<>();
    p.weight().ifPresent(w -> lines.add(f.defaultLine(w)));
    routed.forEach(
        (d, r) -> {
          if (r.into(f.name)) {
            lines.add(d + " " + f.scale(weightOf(p, d)));
          }
        });
    for (DeviceNumber d : devicesIn(current)) {
      V2WeightRoute r = routed.get(d);
      if (r == null || !r.into(f.name)) {
        lines.add(d + " default");
      }
    }
    return lines;
  }

  private static void put(Map<String, List<String>> files, String name, List<String> lines) {
    if (!lines.isEmpty()) {
      files.put(name, List.copyOf(lines));
    }
  }

  private static List<String> v2Limits(BlockIoParameters p, @Nullable String current) {
    TreeSet<DeviceNumber> devices = new TreeSet<>(p.readBps().keySet());
    devices.addAll(p.writeBps().keySet());
    devices.addAll(p.readIops().keySet());
    devices.addAll(p.writeIops().keySet());
    List<String> lines = new ArrayList<>();
    for (DeviceNumber dev : devices) {
      lines.add(
          dev
              + " rbps="
              + limit(p.readBps(), dev)
              + " wbps="
              + limit(p.writeBps(), dev)
              + " riops="
              + limit(p.readIops(), dev)
              + " wiops="
              + limit(p.writeIops(), dev));
    }
    for (DeviceNumber dev : devicesIn(current)) {
      if (!devices.contains(dev)) {
        lines.add(dev + " rbps=max wbps=max riops=max wiops=max");
      }
    }
    return List.copyOf(lines);
  }

  private static String limit(SortedMap<DeviceNumber, Long> m, DeviceNumber dev) {
    Long v = m.get(dev);
    return v == null || v == 0 ? "max" : v.toString();
  }

  /**
   * runc's conversion of a cgroup v1 weight (10..1000) to a v2 weight (1..10000): {@code 1 + (w -
   * 10) * 9999 / 990} in integer arithmetic, so 10 → 1, 100 → 910, 1000 → 10000.
   */
  public static long v2Weight(long v1Weight) {
    return 1 + (v1Weight - 10) * 9999 / 990;
  }

  /** The weight of a device routed by {@code v2}: a key of {@code p.weightDevice()}. */
  private static long weightOf(BlockIoParameters p, DeviceNumber d) {
    return Objects.requireNonNull(p.weightDevice().get(d), "routed devices have a weight");
  }

  /** The devices listed in a cgroup file's content ({@code MAJ:MIN ...} lines; others skipped). */
  static List<DeviceNumber> devicesIn(@Nullable String content) {
    List<DeviceNumber> devices = new ArrayList<>();
    if (content == null) {
      return devices;
    }
    for (String line : content.split("\n", -1)) {
      String first = line.trim().split("\\s+", 2)[0];
      if (first.indexOf(':') > 0) {
        try {
          devices.add(DeviceNumber.parse(first));
        } catch (IllegalArgumentException e) {
          // not a device line (e.g. "default 100"): nothing to reset
        }
      }
    }
    return devices;
  }
}
