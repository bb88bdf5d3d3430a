package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.TopologyHint;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topology hints of the devices and mounts a container is created with, from sysfs below the host
 * root (cri-resmgr's {@code pkg/topology}; docs/topology.md, "Device hints").
 *
 * <p>A host path is resolved to its sysfs device: a path that leads into {@code /sys/devices} (a
 * PCI device's sysfs directory, or a link to it) is that device; otherwise the path is stat'ed: a
 * device node by its own major:minor ({@code /sys/dev/char} or {@code /sys/dev/block}), any other
 * file by the block device of its file system. A VFIO group ({@code /sys/devices/virtual/vfio/N})
 * stands for the devices of IOMMU group N, a device mapper or md device for its {@code slaves}.
 * From the device up, the first directory with a {@code local_cpulist} or a {@code numa_node} other
 * than -1 gives the hint. Paths that cannot be resolved give no hint; nothing here fails.
 */
public final class DeviceHints {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceHints.class);
  private static final List<String> IGNORED_PREFIXES =
      List.of(
          "/.cri-resmgr",
          "/etc/",
          "/dev/termination-log",
          "/lib/",
          "/lib64/",
          "/usr/lib/",
          "/usr/lib32/",
          "/usr/lib64/");
  private static final Pattern KUBELET_VOLUME =
      Pattern.compile("/pods/[0-9a-fA-F-]+/volumes/kubernetes\\.io~(configmap|secret)/");
  private static final int S_IFMT = 0170000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFBLK = 0060000;
  private static final int MAX_DEPTH = 8;

  /**
   * A device or mount of a container.
   *
   * @param hostPath the path on the host
   * @param containerPath the path in the container
   * @param readOnly whether the container cannot write it (such uses give no hint)
   */
  public record Use(String hostPath, String containerPath, boolean readOnly) {
    /** Checks for nulls. */
    public Use {
      Objects.requireNonNull(hostPath, "hostPath");
      Objects.requireNonNull(containerPath, "containerPath");
    }
  }

  /**
   * A device node of a container known by its number, as an OCI runtime spec lists it ({@code
   * linux.devices}) where the host path is not known.
   *
   * @param path the path in the container (the provider of its hint)
   * @param block a block device, else a character device
   * @param major its major number
   * @param minor its minor number
   * @param readOnly whether the container cannot write it (such nodes give no hint)
   */
  public record Node(String path, boolean block, long major, long minor, boolean readOnly) {
    /** Checks for nulls. */
    public Node {
      Objects.requireNonNull(path, "path");
    }
  }

  private final Path root;
  private final Path sys;
  private final Path sysDevices;

  /** Hints read below {@code hostRoot} ({@code --host-root}; empty path: {@code /}). */
  public DeviceHints(Path hostRoot) {
    this.root = realOrAbsolute(hostRoot.toString().isEmpty() ? Path.of("/") : hostRoot);
    this.sys = root.resolve("sys");
    this.sysDevices = sys.resolve("devices");
  }

  private static Path realOrAbsolute(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath();
    }
  }

  /** Whether {@code use} may give a hint: writable, and not a file kubelet or the system owns. */
  public static boolean considered(Use use) {
    if (use.readOnly() || use.hostPath().isEmpty()) {
      return false;
    }
    for (String prefix : IGNORED_PREFIXES) {
      if (use.hostPath().startsWith(prefix) || use.containerPath().startsWith(prefix)) {
        return false;
      }
    }
    return !KUBELET_VOLUME.matcher(use.hostPath()).find();
  }

  /** The hints of the {@link #considered} uses, in order, without duplicates. */
  public List<TopologyHint> hints(List<Use> uses) {
    Set<TopologyHint> hints = new LinkedHashSet<>();
    for (Use use : uses) {
      if (considered(use)) {
        hints.addAll(hints(use.hostPath()));
      }
    }
    return List.copyOf(hints);
  }

  /**
   * The hints of the {@link #considered} {@code uses}, then of the considered {@code nodes}
   * (resolved by number: {@code /sys/dev/char/M:m} or {@code /sys/dev/block/M:m}), in order,
   * without duplicates.
   */
  public List<TopologyHint> hints(List<Use> uses, List<Node> nodes) {
    Set<TopologyHint> hints = new LinkedHashSet<>(hints(uses));
    for (Node node : nodes) {
      if (considered(new Use(node.path(), node.path(), node.readOnly()))) {
        hints.addAll(hints(node.path(), devices(node)));
      }
    }
    return List.copyOf(hints);
  }

  /**
   * The hints of the devices behind {@code hostPath} (below the host root), whatever uses it: a
   * balloon type's {@code PreferCloseToDevices} entry, for instance. Empty if it resolves to none.
   */
  public List<TopologyHint> hints(String hostPath) {
    return hints(hostPath, devices(hostPath));
  }

  private List<TopologyHint> hints(String provider, List<Path> devices) {
    Set<TopologyHint> hints = new LinkedHashSet<>();
    for (Path device : devices) {
      try {
        hint(provider, device).ifPresent(hints::add);
      } catch (RuntimeException e) {
        LOG.warn("no topology hint for {}: {}", provider, e.getMessage());
      }
    }
    return List.copyOf(hints);
  }

  /** Whether {@code hostPath} exists below the host root (following symbolic links). */
  public boolean exists(String hostPath) {
    return Files.exists(root.resolve(hostPath.replaceFirst("^/+", "")));
  }

  /** The sysfs devices (real paths below {@code /sys/devices}) behind {@code hostPath}. */
  List<Path> devices(String hostPath) {
    Path file = root.resolve(hostPath.replaceFirst("^/+", ""));
    try {
      Path real = file.toRealPath();
      return expanded(real.startsWith(sysDevices) ? real : sysfsNode(file));
    } catch (IOException | RuntimeException e) {
      LOG.debug("no topology hint for {}: {}", hostPath, e.toString());
      return List.of();
    }
  }

  /** The sysfs devices behind {@code node}, found by its type and number. */
  List<Path> devices(Node node) {
    try {
      return expanded(sysfsDevice(node.block(), node.major(), node.minor()));
    } catch (IOException | RuntimeException e) {
      LOG.debug("no topology hint for {}: {}", node, e.toString());
      return List.of();
    }
  }

  private @org.jspecify.annotations.Nullable Path sysfsNode(Path file) throws IOException {
    int mode = (Integer) Files.getAttribute(file, "unix:mode");
    int type = mode & S_IFMT;
    boolean node = type == S_IFCHR || type == S_IFBLK;
    long dev = (Long) Files.getAttribute(file, node ? "unix:rdev" : "unix:dev");
    long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    return sysfsDevice(type != S_IFCHR, major, minor);
  }

  /** The sysfs device of a device number ({@code /sys/dev/{char,block}/M:m}), if any. */
  private @org.jspecify.annotations.Nullable Path sysfsDevice(boolean block, long major, long minor)
      throws IOException {
    if (major == 0) {
      return null; // a virtual file system (tmpfs, overlay) or a virtual device node
    }
    Path link = sys.resolve("dev").resolve(block ? "block" : "char").resolve(major + ":" + minor);
    if (!Files.exists(link)) {
      return null;
    }
    Path real = link.toRealPath();
    return real.startsWith(sysDevices) ? real : null;
  }

  private List<Path> expanded(@org.jspecify.annotations.Nullable Path device) throws IOException {
    List<Path> out = new ArrayList<>();
    if (device != null) {
      expand(device, out, 0);
    }
    return out;
  }

  /** VFIO groups become their IOMMU group's devices, stacked block devices their slaves. */
  private void expand(Path device, List<Path> out, int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      return;
    }
    Path rel = sysDevices.relativize(device);
    if (rel.getNameCount() == 3 && rel.startsWith(Path.of("virtual", "vfio"))) {
      Path group = sys.resolve("kernel/iommu_groups").resolve(rel.getFileName()).resolve("devices");
      for (Path d : entries(group)) {
        expand(d.toRealPath(), out, depth + 1);
      }
      return;
    }
    List<Path> slaves = entries(device.resolve("slaves"));
    if (!slaves.isEmpty()) {
      for (Path d : slaves) {
        expand(d.toRealPath(), out, depth + 1);
      }
      return;
    }
    out.add(device);
  }

  private static List<Path> entries(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      s.forEach(out::add);
    }
    out.sort(null);
    return out;
  }

  /** The first {@code local_cpulist} or {@code numa_node} from {@code device} up. */
  private Optional<TopologyHint> hint(String provider, Path device) {
    CpuSet numas = CpuSet.EMPTY;
    for (Path dir = device;
        dir != null && dir.startsWith(sysDevices) && !dir.equals(sysDevices);
        dir = dir.getParent()) {
      CpuSet cpus = SysFiles.readOptionalList(dir.resolve("local_cpulist"));
      if (numas.isEmpty()) {
        numas = numaNode(dir.resolve("numa_node"));
      }
      if (!cpus.isEmpty()) {
        return Optional.of(new TopologyHint(provider, cpus, numas));
      }
    }
    return numas.isEmpty()
        ? Optional.empty()
        : Optional.of(new TopologyHint(provider, CpuSet.EMPTY, numas));
  }

  private static CpuSet numaNode(Path file) {
    String text = SysFiles.readOptional(file);
    if (text == null || text.isBlank()) {
      return CpuSet.EMPTY;
    }
    int id = SysFiles.parseInt(file, text.strip());
    return id < 0 ? CpuSet.EMPTY : CpuSet.of(id);
  }
}
