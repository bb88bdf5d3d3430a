package io.criresmgr.policy.sysfs;

import io.criresmgr.policy.PolicyException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Types memory-only NUMA nodes from the dax devices that put memory on them ({@code
 * sys/bus/dax/devices/<dev>/target_node}): a device below a CXL region is CXL memory (a far DRAM
 * tier), a device below an NVDIMM bus ({@code ndbus}) is PMEM. Soft-reserved ({@code hmem}) devices
 * say nothing certain, so they leave the node to the size rule.
 */
final class DaxDevices {
  /** Below the sysfs root. */
  static final String DIR = "bus/dax/devices";

  private DaxDevices() {}

  /**
   * The type each dax-backed node has: {@link MemoryType#PMEM} or {@link MemoryType#DRAM} (CXL);
   * when several devices target one node, the first by name decides.
   */
  static Map<Integer, MemoryType> types(Path sys) {
    Path dir = sys.resolve(DIR);
    Map<Integer, MemoryType> types = new HashMap<>();
    if (!Files.isDirectory(dir)) {
      return types;
    }
    for (Path device : sorted(dir)) {
      MemoryType type = typeOf(sys, device);
      Path targetFile = device.resolve("target_node");
      String target = SysFiles.readOptional(targetFile);
      if (type != null && target != null) {
        types.putIfAbsent(SysFiles.parseInt(targetFile, target), type);
      }
    }
    return types;
  }

  private static List<Path> sorted(Path dir) {
    try (var entries = Files.list(dir)) {
      return entries.sorted().toList();
    } catch (IOException e) {
      throw new PolicyException(dir + ": cannot list: " + e, e);
    }
  }

  /**
   * PMEM or DRAM (CXL) from the device's real path below {@code sys} (so that the host root's own
   * name does not count), null when the path tells neither.
   */
  static @Nullable MemoryType typeOf(Path sys, Path device) {
    Path real;
    try {
      Path realSys = sys.toRealPath();
      real = device.toRealPath();
      real = real.startsWith(realSys) ? realSys.relativize(real) : real;
    } catch (IOException e) {
      throw new PolicyException(device + ": cannot resolve: " + e, e);
    }
    for (Path part : real) {
      String name = part.toString().toLowerCase(Locale.ROOT);
      if (name.startsWith("ndbus")) {
        return MemoryType.PMEM;
      }
      // ACPI0017 is the CXL host bridge's ACPI id; its devices' names do not say "cxl".
      if (name.contains("cxl") || name.startsWith("acpi0017")) {
        return MemoryType.DRAM;
      }
    }
    return null;
  }
}
