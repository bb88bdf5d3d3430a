package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Objects;

/**
 * A stand-in for the CPU allocator until it is available: whole idle cores by lowest id first, then
 * single threads by lowest id.
 */
final class LowestIdPicker implements CpuPicker {
  private final SystemTopology topology;

  LowestIdPicker(SystemTopology topology) {
    this.topology = Objects.requireNonNull(topology, "topology");
  }

  @Override
  public CpuSet take(CpuSet from, int count, CpuPriority prefer) {
    CpuSet taken = CpuSet.EMPTY;
    for (int cpu : from.stream().toArray()) {
      CpuSet core = topology.coreCpus(cpu);
      if (!taken.contains(cpu) && from.containsAll(core) && taken.size() + core.size() <= count) {
        taken = taken.union(core);
      }
    }
    return taken.union(from.difference(taken).lowest(count - taken.size()));
  }

  @Override
  public CpuSet oneThreadPerCore(CpuSet cpus) {
    CpuSet out = CpuSet.EMPTY;
    for (int cpu : cpus.stream().toArray()) {
      if (!topology.coreCpus(cpu).intersection(cpus).intersects(out)) {
        out = out.union(CpuSet.of(cpu));
      }
    }
    return out;
  }
}
