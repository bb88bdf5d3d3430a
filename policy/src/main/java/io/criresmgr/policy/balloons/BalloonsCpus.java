package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Quantities;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CPUs the balloons policy may use ({@code policy.AvailableResources.CPU}, default every online
 * CPU) and the reserved ones ({@code policy.ReservedResources.CPU}, mandatory). Lists are {@code
 * cpuset:<list>} or a bare list with {@code -} or {@code ,}; a reserved quantity such as {@code
 * 750m} reserves {@code ceil(quantity)} available CPUs picked by the CPU allocator. Cgroup forms
 * are not supported yet.
 *
 * @param allowed the CPUs the policy may use
 * @param reserved the reserved CPUs, among the allowed ones
 */
record BalloonsCpus(CpuSet allowed, CpuSet reserved) {
  static final String AVAILABLE = "policy.AvailableResources.CPU";
  static final String RESERVED = "policy.ReservedResources.CPU";

  /**
   * Resolves the CPUs of {@code context} on {@code topology}.
   *
   * @throws PolicyException naming the option and the value
   */
  static BalloonsCpus resolve(
      PolicyContext context, SystemTopology topology, CpuAllocator allocator) {
    CpuSet online = topology.onlineCpus();
    CpuSet allowed = online;
    Optional<String> available = value(context.availableResources(), AVAILABLE);
    if (available.isPresent()) {
      allowed =
          list(AVAILABLE, available.get())
              .orElseThrow(() -> invalid(AVAILABLE, available.get(), "expected a CPU list"))
              .intersection(online);
    }
    String value =
        value(context.reservedResources(), RESERVED)
            .orElseThrow(
                () ->
                    new PolicyException(
                        RESERVED
                            + ": missing; the balloons policy needs CPUs reserved for kube-system,"
                            + " e.g. ReservedResources: {CPU: 1} or {CPU: cpuset:0}"));
    Optional<CpuSet> list = list(RESERVED, value);
    CpuSet reserved = list.isPresent() ? list.get() : pick(value, allowed, allocator);
    if (reserved.isEmpty() || !allowed.containsAll(reserved)) {
      throw invalid(RESERVED, value, "expected some of the available CPUs " + allowed);
    }
    return new BalloonsCpus(allowed, reserved);
  }

  private static CpuSet pick(String value, CpuSet from, CpuAllocator allocator) {
    long milli;
    try {
      milli = Quantities.parseMilli(value);
    } catch (IllegalArgumentException e) {
      throw invalid(RESERVED, value, "expected a CPU quantity such as 750m or 2, or a CPU list");
    }
    long count = (milli + 999) / 1000;
    if (count > from.size()) {
      throw invalid(RESERVED, value, count + " CPUs do not fit in " + from);
    }
    return count == 0 ? CpuSet.EMPTY : allocator.allocate(from, (int) count, CpuPriority.NORMAL);
  }

  private static Optional<CpuSet> list(String option, String value) {
    String text = value.startsWith("cpuset:") ? value.substring("cpuset:".length()) : value;
    if (!value.startsWith("cpuset:") && !value.contains("-") && !value.contains(",")) {
      return Optional.empty();
    }
    try {
      return Optional.of(CpuSet.parse(text));
    } catch (IllegalArgumentException e) {
      throw invalid(option, value, e.getMessage());
    }
  }

  private static Optional<String> value(Map<String, String> resources, String option) {
    List<Map.Entry<String, String>> given =
        resources.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("cpu")).toList();
    if (given.size() > 1) {
      throw new PolicyException(option + ": given twice (keys are case-insensitive)");
    }
    return given.stream().map(e -> e.getValue().trim()).findFirst();
  }

  private static PolicyException invalid(String option, String value, String why) {
    return new PolicyException(option + ": invalid value \"" + value + "\": " + why);
  }
}
