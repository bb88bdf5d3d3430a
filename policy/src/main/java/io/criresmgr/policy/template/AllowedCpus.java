package io.criresmgr.policy.template;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CPUs the template policy may hand out: {@code policy.AvailableResources.CPU} when given, else
 * every online CPU. Only explicit CPU lists are accepted; cri-resmgr's other forms (cgroup
 * directories, CPU quantities) need more than this example shows.
 */
final class AllowedCpus {
  static final String KEY = "policy.AvailableResources.CPU";
  private static final String FORMS =
      "expected cpuset:<list> or a CPU list such as 0-3 or 0,2 (the template policy does not"
          + " accept quantities or cgroup paths; write cpuset:2 for CPU 2)";

  private static final Logger LOG = LoggerFactory.getLogger(AllowedCpus.class);

  private AllowedCpus() {}

  /**
   * The allowed CPUs, restricted to the online ones.
   *
   * @throws PolicyException if the constraint is malformed or leaves no online CPU
   */
  static CpuSet from(PolicyContext context) {
    List<Map.Entry<String, String>> given =
        context.availableResources().entrySet().stream()
            .filter(e -> e.getKey().equalsIgnoreCase("cpu"))
            .toList();
    if (given.size() > 1) {
      throw new PolicyException(KEY + ": given twice (keys are case-insensitive)");
    }
    CpuSet allowed = given.isEmpty() ? context.onlineCpus() : parse(given.get(0).getValue().trim());
    CpuSet usable = allowed.intersection(context.onlineCpus());
    if (usable.isEmpty()) {
      throw new PolicyException(
          KEY
              + ": none of the CPUs "
              + allowed
              + " is online (online: "
              + context.onlineCpus()
              + ")");
    }
    if (!usable.equals(allowed)) {
      LOG.warn("{}: CPUs {} are not online, ignored", KEY, allowed.difference(usable));
    }
    return usable;
  }

  /** Parses {@code cpuset:<list>} or a bare list containing {@code -} or {@code ,}. */
  static CpuSet parse(String value) {
    boolean prefixed = value.startsWith("cpuset:");
    String list = prefixed ? value.substring("cpuset:".length()) : value;
    if (!prefixed && !list.contains("-") && !list.contains(",")) {
      // cri-resmgr reads a bare number as a quantity ("2" = two CPUs), never as CPU 2.
      throw invalid(value, FORMS);
    }
    try {
      CpuSet cpus = CpuSet.parse(list);
      if (cpus.isEmpty()) {
        throw invalid(value, "the list is empty; " + FORMS);
      }
      return cpus;
    } catch (IllegalArgumentException e) {
      throw invalid(value, e.getMessage() + "; " + FORMS);
    }
  }

  private static PolicyException invalid(String value, String why) {
    return new PolicyException(KEY + ": invalid value \"" + value + "\": " + why);
  }
}
