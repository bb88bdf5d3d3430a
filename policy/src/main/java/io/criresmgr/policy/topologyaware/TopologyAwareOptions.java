package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import java.util.List;
import java.util.Objects;

/**
 * The options of section {@code policy.topology-aware} (cri-resmgr spellings; the camelCase
 * spellings of nri-plugins are accepted too).
 *
 * @param pinCpu {@code PinCPU}: set cpusets and CPU shares
 * @param pinMemory {@code PinMemory}: set {@code cpuset.mems}
 * @param preferIsolatedCpus {@code PreferIsolatedCPUs}
 * @param preferSharedCpus {@code PreferSharedCPUs}
 * @param reservedPoolNamespaces {@code ReservedPoolNamespaces}: namespace globs using reserved CPUs
 *     ({@code kube-system} always does)
 * @param colocatePods {@code ColocatePods}
 * @param colocateNamespaces {@code ColocateNamespaces}
 * @param defaultCpuPriority {@code DefaultCPUPriority}: CPU priority of exclusive allocations
 */
public record TopologyAwareOptions(
    boolean pinCpu,
    boolean pinMemory,
    boolean preferIsolatedCpus,
    boolean preferSharedCpus,
    List<String> reservedPoolNamespaces,
    boolean colocatePods,
    boolean colocateNamespaces,
    CpuPriority defaultCpuPriority)
    implements PolicyOptions {
  /** The defaults of cri-resmgr. */
  public static final TopologyAwareOptions DEFAULTS =
      new TopologyAwareOptions(
          true, true, true, false, List.of("kube-system"), false, false, CpuPriority.NONE);

  /** Checks for nulls and copies the list. */
  public TopologyAwareOptions {
    reservedPoolNamespaces = List.copyOf(reservedPoolNamespaces);
    Objects.requireNonNull(defaultCpuPriority, "defaultCpuPriority");
  }

  /**
   * Parses section {@code policy.topology-aware}.
   *
   * @throws io.criresmgr.policy.PolicyException naming the key, the value and what is allowed
   */
  public static TopologyAwareOptions parse(JsonNode section) {
    throw new UnsupportedOperationException("not yet: " + section);
  }
}
