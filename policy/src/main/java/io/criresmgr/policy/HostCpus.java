package io.criresmgr.policy;

import io.criresmgr.cache.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The host's online CPUs and memory nodes, read from sysfs below a root directory ({@code
 * --host-root}, {@code /} on a real node; a fake tree in tests).
 *
 * @param onlineCpus {@code <hostRoot>/sys/devices/system/cpu/online}
 * @param memoryNodes {@code <hostRoot>/sys/devices/system/node/online}, or node 0 on kernels
 *     without NUMA support, which have no such file
 */
public record HostCpus(CpuSet onlineCpus, CpuSet memoryNodes) {
  /** The online CPU list, relative to the host root. */
  public static final String CPU_ONLINE = "sys/devices/system/cpu/online";

  /** The online memory node list, relative to the host root. */
  public static final String NODE_ONLINE = "sys/devices/system/node/online";

  /** Checks for nulls. */
  public HostCpus {
    Objects.requireNonNull(onlineCpus, "onlineCpus");
    Objects.requireNonNull(memoryNodes, "memoryNodes");
  }

  /**
   * Reads both lists below {@code hostRoot}.
   *
   * @throws PolicyException naming the file that is missing, unreadable, malformed or empty
   */
  public static HostCpus read(Path hostRoot) {
    CpuSet cpus = readList(hostRoot.resolve(CPU_ONLINE));
    Path nodeFile = hostRoot.resolve(NODE_ONLINE);
    CpuSet nodes = Files.exists(nodeFile) ? readList(nodeFile) : CpuSet.of(0);
    return new HostCpus(cpus, nodes);
  }

  /** A policy context for this host with the given {@code policy} resource constraints. */
  public PolicyContext context(
      Path hostRoot, Map<String, String> availableResources, Map<String, String> reserved) {
    return new PolicyContext(hostRoot, onlineCpus, memoryNodes, availableResources, reserved);
  }

  private static CpuSet readList(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new PolicyException(file + ": missing; is --host-root right?", e);
    } catch (IOException e) {
      throw new PolicyException(file + ": cannot read: " + e, e);
    }
    CpuSet set;
    try {
      set = CpuSet.parse(text.trim());
    } catch (IllegalArgumentException e) {
      throw new PolicyException(file + ": " + e.getMessage(), e);
    }
    if (set.isEmpty()) {
      throw new PolicyException(file + ": empty, expected a list such as 0-3");
    }
    return set;
  }
}
