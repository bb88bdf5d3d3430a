package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Adds devices to a fake host (docs/topology.md, "Fake devices"): each is a PCI function {@code
 * sys/devices/pci0000:00/0000:00:NN.0} with a {@code numa_node} and a {@code local_cpulist}, and
 * its host path is a symbolic link to it, as no device node can be made without privileges. A host
 * path {@code /dev/vfio/<group>} links to {@code sys/devices/virtual/vfio/<group>} instead, and the
 * function is the only member of IOMMU group {@code <group>}. Each device also has a character
 * device number, {@value #MAJOR}:{@code <slot>}, in a {@code dev} file and a {@code
 * sys/dev/char/M:m} link as the kernel writes them, so that it can also be found by its number (as
 * a runtime's OCI spec lists devices). {@link DeviceHints} resolves them all as it resolves real
 * devices.
 */
public final class FakeDevices {
  /** The major number of fake devices (one of the kernel's numbers for local use). */
  public static final int MAJOR = 240;

  private FakeDevices() {}

  /**
   * Writes a device at {@code hostPath} (absolute, e.g. {@code /dev/vfio/7}) below {@code
   * hostRoot}.
   *
   * @param numaNode its {@code numa_node}, -1 for none
   * @param localCpus its {@code local_cpulist}, empty to write none
   * @return the function's sysfs directory
   * @throws IllegalArgumentException if {@code hostPath} is not absolute or already exists
   */
  public static Path write(Path hostRoot, String hostPath, int numaNode, CpuSet localCpus) {
    if (!hostPath.startsWith("/")) {
      throw new IllegalArgumentException("device path " + hostPath + ": not absolute");
    }
    Path node = hostRoot.resolve(hostPath.substring(1));
    if (Files.exists(node, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalArgumentException("device path " + hostPath + ": exists");
    }
    try {
      Path bus = hostRoot.resolve("sys/devices/pci0000:00");
      Files.createDirectories(bus);
      long slot;
      try (var entries = Files.list(bus)) {
        slot = entries.count() + 1;
      }
      String name = String.format(Locale.ROOT, "0000:00:%02x.0", slot);
      Path function = bus.resolve(name);
      Files.createDirectories(function);
      Files.writeString(function.resolve("numa_node"), numaNode + "\n");
      if (!localCpus.isEmpty()) {
        Files.writeString(function.resolve("local_cpulist"), localCpus + "\n");
      }
      Path target = function;
      Path parent = Path.of(hostPath).getParent();
      if (parent != null && parent.toString().equals("/dev/vfio")) {
        String group = Path.of(hostPath).getFileName().toString();
        target = hostRoot.resolve("sys/devices/virtual/vfio").resolve(group);
        Files.createDirectories(target);
        Path members =
            hostRoot.resolve("sys/kernel/iommu_groups").resolve(group).resolve("devices");
        Files.createDirectories(members);
        Files.createSymbolicLink(members.resolve(name), function.toAbsolutePath());
      }
      Files.writeString(target.resolve("dev"), MAJOR + ":" + slot + "\n");
      Path numbers = hostRoot.resolve("sys/dev/char");
      Files.createDirectories(numbers);
      Files.createSymbolicLink(numbers.resolve(MAJOR + ":" + slot), target.toAbsolutePath());
      Files.createDirectories(node.getParent());
      Files.createSymbolicLink(node, target.toAbsolutePath());
      return function;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
