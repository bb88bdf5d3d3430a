package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuPriority;

/** Picks CPUs for exclusive grants and thins granted sets to one hyperthread per core. */
interface CpuPicker {
  /** Picks {@code count} CPUs of {@code from}, preferring {@code prefer} priority CPUs. */
  CpuSet take(CpuSet from, int count, CpuPriority prefer);

  /** One hyperthread per core of {@code cpus}. */
  CpuSet oneThreadPerCore(CpuSet cpus);

  /** The shared CPU allocator (reference §4.9). */
  static CpuPicker of(CpuAllocator allocator) {
    return new CpuPicker() {
      @Override
      public CpuSet take(CpuSet from, int count, CpuPriority prefer) {
        return allocator.allocate(from, count, prefer);
      }

      @Override
      public CpuSet oneThreadPerCore(CpuSet cpus) {
        return allocator.oneThreadPerCore(cpus);
      }
    };
  }
}
