package io.criresmgr.policy.cpuallocator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Quantities;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CPUs a policy may use and those it reserves, from {@code policy.AvailableResources.CPU} and
 * {@code policy.ReservedResources.CPU} (docs/configuration.md, section {@code policy}).
 *
 * <p>Available: {@code cpuset:<list>}, a bare list such as {@code 0-3} or {@code 0,2}, or a cgroup
 * ({@code cgroup:<dir>} or a path starting with {@code /}, absolute or relative to the cgroup mount
 * or its cpuset controller) whose {@code cpuset.cpus} gives the CPUs; a quantity is an error;
 * default every online CPU. Reserved (mandatory): a CPU list in the same forms, which must be among
 * the available CPUs and not isolated (unless it is the only reserved CPU), or a quantity such as
 * {@code 750m}, for which the CPU allocator picks {@code ceil(quantity)} available, non-isolated
 * CPUs at normal priority.
 *
 * @param allowed the CPUs the policy may use
 * @param reserved the reserved CPUs, among the allowed ones
 */
public record CpuConstraints(CpuSet allowed, CpuSet reserved) {
  /** The option naming the available CPUs, for messages. */
  public static final String AVAILABLE = "policy.AvailableResources.CPU";

  /** The option naming the reserved CPUs, for messages. */
  public static final String RESERVED = "policy.ReservedResources.CPU";

  private static final String LIST_FORMS =
      "cpuset:<list>, a CPU list such as 0-3 or 0,2, or a cgroup (cgroup:<dir> or /<dir>)";

  /** Checks for nulls. */
  public CpuConstraints {
    java.util.Objects.requireNonNull(allowed, "allowed");
    java.util.Objects.requireNonNull(reserved, "reserved");
  }

  /**
   * Resolves the constraints of {@code context} on {@code topology} for policy {@code policyName}
   * (named in the message when the reservation is missing); {@code allocator} picks reserved CPUs
   * given as a quantity.
   *
   * @throws PolicyException naming the option, the value and what is allowed
   */
  public static CpuConstraints resolve(
      String policyName, PolicyContext context, SystemTopology topology, CpuAllocator allocator) {
    CpuSet online = topology.onlineCpus();
    CpuSet allowed = online;
    Optional<String> available = value(context.availableResources(), AVAILABLE);
    if (available.isPresent()) {
      CpuSet set =
          list(AVAILABLE, available.get(), context)
              .orElseThrow(
                  () ->
                      invalid(
                          AVAILABLE,
                          available.get(),
                          "a quantity is not accepted here, expected " + LIST_FORMS));
      allowed = set.intersection(online);
      if (allowed.isEmpty()) {
        throw invalid(AVAILABLE, available.get(), "none of these CPUs is online (" + online + ")");
      }
    }
    String value =
        value(context.reservedResources(), RESERVED)
            .orElseThrow(
                () ->
                    new PolicyException(
                        RESERVED
                            + ": missing; the "
                            + policyName
                            + " policy needs CPUs reserved for"
                            + " kube-system, e.g. ReservedResources: {CPU: 750m} or {CPU:"
                            + " cpuset:0}"));
    CpuSet isolated = topology.isolatedCpus().intersection(allowed);
    Optional<CpuSet> list = list(RESERVED, value, context);
    CpuSet reserved =
        list.isPresent()
            ? checkReservedList(value, list.get(), allowed, isolated)
            : pick(value, allowed.difference(isolated), allocator);
    return new CpuConstraints(allowed, reserved);
  }

  private static CpuSet checkReservedList(
      String value, CpuSet reserved, CpuSet allowed, CpuSet isolated) {
    if (!allowed.containsAll(reserved)) {
      throw invalid(
          RESERVED,
          value,
          "CPUs "
              + reserved.difference(allowed)
              + " are not among the available CPUs "
              + allowed
              + " ("
              + AVAILABLE
              + "); reserve available CPUs");
    }
    if (reserved.intersects(isolated) && reserved.size() > 1) {
      throw invalid(
          RESERVED,
          value,
          "CPUs "
              + reserved.intersection(isolated)
              + " are kernel-isolated; an isolated CPU may only be reserved alone");
    }
    return reserved;
  }

  private static CpuSet pick(String value, CpuSet from, CpuAllocator allocator) {
    long milli;
    try {
      milli = Quantities.parseMilli(value);
    } catch (IllegalArgumentException e) {
      throw invalid(RESERVED, value, "expected a CPU quantity such as 750m or 2, or " + LIST_FORMS);
    }
    long count = (milli + 999) / 1000;
    if (count > from.size()) {
      throw invalid(
          RESERVED,
          value,
          count
              + " CPUs do not fit in the "
              + from.size()
              + " available non-isolated CPUs ("
              + from
              + ")");
    }
    return count == 0 ? CpuSet.EMPTY : allocator.allocate(from, (int) count, CpuPriority.NORMAL);
  }

  private static Optional<CpuSet> list(String option, String value, PolicyContext context) {
    try {
      return CpuValue.list(value, context.hostRoot());
    } catch (PolicyException e) {
      throw invalid(option, value, e.getMessage() + "; expected " + LIST_FORMS, e);
    }
  }

  /** The value of the {@code CPU} key (any case) of {@code resources}. */
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

  private static PolicyException invalid(String option, String value, String why, Throwable e) {
    return new PolicyException(option + ": invalid value \"" + value + "\": " + why, e);
  }
}
