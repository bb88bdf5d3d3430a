package io.criresmgr.controllers.blockio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Resolves device globs to whole-disk block devices under a host root ({@code /} in production, a
 * fake tree in tests).
 *
 * <p>Steps, as in cri-resmgr: expand each glob; follow symlinks (absolute link targets are taken
 * relative to the host root); keep block devices that are not partitions. Unlike cri-resmgr, which
 * {@code stat}s the node for its rdev, the major:minor comes from sysfs: a node {@code /dev/<name>}
 * is a block device when {@code /sys/class/block/<name>/dev} exists, holding {@code MAJ:MIN}, and a
 * partition when {@code /sys/class/block/<name>/partition} exists. This works the same on a host
 * and on a fake tree (no mknod needed) and recognizes partitions exactly, where cri-resmgr's {@code
 * minor & 0xf} rule misjudges NVMe and other dynamic minors.
 */
public final class BlockDeviceResolver {
  private static final int MAX_LINKS = 40;

  private final Path hostRoot;

  /** A resolver for the host whose root directory is {@code hostRoot}. */
  public BlockDeviceResolver(Path hostRoot) {
    this.hostRoot = Objects.requireNonNull(hostRoot, "hostRoot").toAbsolutePath().normalize();
  }

  /** Resolves {@code globs} (absolute, Go {@code filepath.Match} syntax) to block devices. */
  public DeviceResolution resolve(List<String> globs) {
    List<String> warnings = new ArrayList<>();
    Map<String, String> matches = new LinkedHashMap<>();
    for (String glob : globs) {
      List<String> found = expand(DeviceGlob.compile(glob));
      if (found.isEmpty()) {
        warnings.add("device wildcard \"" + glob + "\" does not match any device nodes");
      }
      for (String match : found) {
        matches.putIfAbsent(match, match.equals(glob) ? "" : "from wildcard \"" + glob + "\"");
      }
    }
    Map<DeviceNumber, BlockDevice> devices = new LinkedHashMap<>();
    matches.forEach(
        (match, origin) -> device(match, origin, warnings).ifPresent(d -> add(devices, d)));
    List<BlockDevice> sorted = new ArrayList<>(devices.values());
    sorted.sort(Comparator.comparing(BlockDevice::number));
    return new DeviceResolution(sorted, warnings);
  }

  private static void add(Map<DeviceNumber, BlockDevice> devices, BlockDevice d) {
    devices.putIfAbsent(d.number(), d);
  }

  /** The host paths (e.g. {@code /dev/sda}) matching {@code glob}, sorted per directory. */
  private List<String> expand(DeviceGlob glob) {
    List<Path> current = List.of(hostRoot);
    for (int i = 0; i < glob.literals().size(); i++) {
      List<Path> next = new ArrayList<>();
      for (Path dir : current) {
        next.addAll(step(glob, i, dir));
      }
      current = next;
    }
    return current.stream().map(this::hostPath).toList();
  }

  private List<Path> step(DeviceGlob glob, int i, Path dir) {
    if (!glob.hasMeta(i)) {
      Path p = dir.resolve(glob.literals().get(i));
      return Files.exists(p, LinkOption.NOFOLLOW_LINKS) ? List.of(p) : List.of();
    }
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries
          .filter(p -> glob.patterns().get(i).matcher(p.getFileName().toString()).matches())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  private Optional<BlockDevice> device(String match, String origin, List<String> warnings) {
    Optional<Path> real = followLinks(match, warnings);
    if (real.isEmpty()) {
      return Optional.empty();
    }
    String node = hostPath(real.get());
    String why = node.equals(match) ? origin : join("from symlink \"" + match + "\"", origin);
    String suffix = why.isEmpty() ? "" : " (origin: " + why + ")";
    Path sys = hostRoot.resolve("sys/class/block").resolve(real.get().getFileName().toString());
    Optional<DeviceNumber> number = deviceNumber(sys.resolve("dev"));
    if (number.isEmpty()) {
      warnings.add("skipping \"" + node + "\": not a block device" + suffix);
      return Optional.empty();
    }
    if (Files.exists(sys.resolve("partition"))) {
      warnings.add("skipping \"" + node + "\": cannot weight/throttle partitions" + suffix);
      return Optional.empty();
    }
    return Optional.of(new BlockDevice(number.get(), node, why));
  }

  private Optional<Path> followLinks(String match, List<String> warnings) {
    Path p = hostRoot.resolve(match.substring(1));
    for (int hops = 0; Files.isSymbolicLink(p); hops++) {
      if (hops == MAX_LINKS) {
        warnings.add("skipping \"" + match + "\": too many levels of symbolic links");
        return Optional.empty();
      }
      p = linkTarget(p);
      if (!p.startsWith(hostRoot)) {
        warnings.add("skipping \"" + match + "\": symlink leads outside the host root");
        return Optional.empty();
      }
    }
    if (!Files.exists(p)) {
      warnings.add("skipping \"" + match + "\": dangling symlink to \"" + hostPath(p) + "\"");
      return Optional.empty();
    }
    return Optional.of(p);
  }

  private Path linkTarget(Path link) {
    try {
      Path target = Files.readSymbolicLink(link);
      Path resolved =
          target.isAbsolute()
              ? hostRoot.resolve(target.getRoot().relativize(target))
              : link.resolveSibling(target);
      return resolved.normalize();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read symlink " + link, e);
    }
  }

  /**
   * The active I/O scheduler of {@code device} from {@code /sys/block/<name>/queue/scheduler} (the
   * bracketed entry, or the only one), if readable.
   */
  public Optional<String> scheduler(BlockDevice device) {
    String name = Path.of(device.devNode()).getFileName().toString();
    return activeScheduler(hostRoot.resolve("sys/block").resolve(name).resolve("queue/scheduler"));
  }

  /** The bracketed (or only) entry of scheduler file {@code file}, if readable. */
  static Optional<String> activeScheduler(Path file) {
    try {
      String text = Files.readString(file).trim();
      int open = text.indexOf('[');
      int close = text.indexOf(']');
      if (open >= 0 && open < close) {
        return Optional.of(text.substring(open + 1, close));
      }
      return text.isEmpty() || text.contains(" ") ? Optional.empty() : Optional.of(text);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<DeviceNumber> deviceNumber(Path devFile) {
    try {
      return Optional.of(DeviceNumber.parse(Files.readString(devFile)));
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private String hostPath(Path p) {
    return "/" + hostRoot.relativize(p).toString();
  }

  private static String join(String a, String b) {
    return b.isEmpty() ? a : a + " " + b;
  }
}
