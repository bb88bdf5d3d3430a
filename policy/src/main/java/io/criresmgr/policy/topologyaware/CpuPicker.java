package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.cpuallocator.PreferredCpus;

/** Picks CPUs for exclusive grants and thins granted sets to one hyperthread per core. */
interface CpuPicker {
  /** Picks {@code count} CPUs of {@code from}, preferring {@code prefer} priority CPUs. */
  CpuSet take(CpuSet from, int count, CpuPriority prefer);

  /** One hyperthread per core of {@code cpus}. */
  CpuSet oneThreadPerCore(CpuSet cpus);

  /** This picker taking {@code preferred} CPUs first where they are among the candidates. */
  default CpuPicker preferring(CpuSet preferred) {
    CpuPicker plain = this;
    return new CpuPicker() {
      @Override
      public CpuSet take(CpuSet from, int count, CpuPriority prefer) {
        return PreferredCpus.take(from, count, preferred, (f, n) -> plain.take(f, n, prefer));
      }

      @Override
      public CpuSet oneThreadPerCore(CpuSet cpus) {
        return plain.oneThreadPerCore(cpus);
      }
    };
  }

  /** The CPU allocator shared by the policies ({@link CpuAllocator}). */
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
