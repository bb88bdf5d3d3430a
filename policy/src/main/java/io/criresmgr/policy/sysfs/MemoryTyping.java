package io.criresmgr.policy.sysfs;

import java.util.Collection;
import java.util.stream.LongStream;

/**
 * cri-resmgr's size rule for memory-only nodes without a dax device that says what they are: as
 * large as the average DRAM node or larger is PMEM, smaller is HBM. Shared by {@link SysfsReader}
 * and {@link TopologySpec#topology()} so that a generated tree reads back as its spec says.
 */
final class MemoryTyping {
  private MemoryTyping() {}

  /** The average memory of the nodes with CPUs and memory, 0 if there are none. */
  static long averageDram(Collection<NumaNode> nodes) {
    long[] sizes =
        nodes.stream()
            .filter(n -> !n.memoryOnly() && n.memoryBytes() > 0)
            .mapToLong(NumaNode::memoryBytes)
            .toArray();
    return sizes.length == 0 ? 0 : LongStream.of(sizes).sum() / sizes.length;
  }

  /** The type of a memory-only node of {@code bytes} given the average DRAM node size. */
  static MemoryType bySize(long bytes, long averageDram) {
    return bytes >= averageDram ? MemoryType.PMEM : MemoryType.HBM;
  }
}
