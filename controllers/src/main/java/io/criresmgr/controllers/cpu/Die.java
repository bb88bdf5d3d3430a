package io.criresmgr.controllers.cpu;

import java.util.Comparator;
import java.util.Locale;

/**
 * A die of a CPU package, the scope of Intel uncore frequency control.
 *
 * @param packageId the CPU's {@code topology/physical_package_id}
 * @param dieId the CPU's {@code topology/die_id} (0 where the kernel has no such file)
 */
record Die(int packageId, int dieId) {
  /** By package, then die. */
  static final Comparator<Die> ORDER =
      Comparator.comparingInt(Die::packageId).thenComparingInt(Die::dieId);

  /** The die's directory under {@code intel_uncore_frequency}, as the kernel driver names it. */
  String dirName() {
    return String.format(Locale.ROOT, "package_%02d_die_%02d", packageId, dieId);
  }
}
