package io.criresmgr.policy.balloons;

import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link CpuTreeAllocator} chooses CPUs (a balloon type's allocator options).
 *
 * @param topologyBalancing {@code allocatorTopologyBalancing}: inflate into the subtree with the
 *     most free CPUs (spread balloons apart); false packs balloons into the fullest subtree
 * @param preferSpreadOnPhysicalCores take one thread of each core before second threads
 * @param priority the CPU priority class preferred when picking the exact CPUs of a subtree
 * @param preferences the CPU sets preferred or avoided before the tree chooses ({@code
 *     PreferCloseToDevices}, {@code PreferIsolCpus}, {@code PreferCoreType})
 */
public record CpuTreeOptions(
    boolean topologyBalancing,
    boolean preferSpreadOnPhysicalCores,
    CpuPriority priority,
    CpuPreferences preferences) {
  private static final Logger log = LoggerFactory.getLogger(CpuTreeOptions.class);

  /** Checks for null. */
  public CpuTreeOptions {
    Objects.requireNonNull(priority, "priority");
    Objects.requireNonNull(preferences, "preferences");
  }

  /** Options without CPU preferences. */
  public CpuTreeOptions(
      boolean topologyBalancing, boolean preferSpreadOnPhysicalCores, CpuPriority priority) {
    this(topologyBalancing, preferSpreadOnPhysicalCores, priority, CpuPreferences.NONE);
  }

  /**
   * The options of {@code type} under the policy {@code options} on {@code topology}: inherited
   * balancing and spreading, the type's priority, and its CPU preferences among {@link
   * BalloonsOptions#effectiveTypes()}. Warns (as nri-plugins does, without failing) when the type
   * prefers isolated CPUs and shares idle CPUs, since isolated CPUs are never shared.
   */
  public static CpuTreeOptions of(
      BalloonType type, BalloonsOptions options, SystemTopology topology) {
    return of(type, options, topology, DeviceCpus.NONE);
  }

  /**
   * The options of {@code type} as {@link #of(BalloonType, BalloonsOptions, SystemTopology)}, with
   * the CPUs of {@code PreferCloseToDevices} devices from {@code deviceCpus}.
   */
  public static CpuTreeOptions of(
      BalloonType type, BalloonsOptions options, SystemTopology topology, DeviceCpus deviceCpus) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(topology, "topology");
    Objects.requireNonNull(deviceCpus, "deviceCpus");
    warning(type).ifPresent(log::warn);
    CpuPreferences prefs = CpuPreferences.of(type, options.effectiveTypes(), topology, deviceCpus);
    if (!prefs.isEmpty()) {
      log.debug("balloon type \"{}\": CPU preferences {}", type.name(), prefs.hints());
    }
    return new CpuTreeOptions(
        options.allocatorTopologyBalancing(type),
        options.preferSpreadOnPhysicalCores(type),
        type.allocatorPriority(),
        prefs);
  }

  /**
   * The warning nri-plugins' validation gives for {@code type} without rejecting it: {@code
   * PreferIsolCpus} together with {@code ShareIdleCPUsInSame}.
   */
  static Optional<String> warning(BalloonType type) {
    if (!type.preferIsolCpus() || type.shareIdleCpusInSame() == null) {
      return Optional.empty();
    }
    return Optional.of(
        "balloon type \""
            + type.name()
            + "\": using PreferIsolCpus with ShareIdleCPUsInSame is highly discouraged: its"
            + " containers would also run on shared idle CPUs, which are never isolated ones");
  }
}
