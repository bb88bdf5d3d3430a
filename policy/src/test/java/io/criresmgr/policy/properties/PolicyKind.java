package io.criresmgr.policy.properties;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.balloons.BalloonsPolicyProvider;
import io.criresmgr.policy.template.TemplatePolicyProvider;
import io.criresmgr.policy.topologyaware.TopologyAwarePolicyProvider;
import java.io.UncheckedIOException;

/** A built-in policy under test, with the options it runs with and what it promises. */
enum PolicyKind {
  TEMPLATE("{}", false),
  TOPOLOGY_AWARE("{}", true),
  BALLOONS("{\"BalloonTypes\": [{\"Name\": \"work\", \"Namespaces\": [\"default\"]}]}", true);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String options;
  private final boolean keepsOffReserved;

  PolicyKind(String options, boolean keepsOffReserved) {
    this.options = options;
    this.keepsOffReserved = keepsOffReserved;
  }

  PolicyProvider<?> provider() {
    return switch (this) {
      case TEMPLATE -> new TemplatePolicyProvider();
      case TOPOLOGY_AWARE -> new TopologyAwarePolicyProvider();
      case BALLOONS -> new BalloonsPolicyProvider();
    };
  }

  /** The policy's options section. */
  JsonNode options() {
    try {
      return JSON.readTree(options);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether containers outside the reserved namespaces never get reserved CPUs. */
  boolean keepsOffReserved() {
    return keepsOffReserved;
  }

  /**
   * Whether {@code c} holds its CPUs alone: a whole number of CPUs, request equal to limit, and a
   * cpuset of that size; topology-aware grants these only to Guaranteed containers, balloons never
   * (containers of a balloon share its CPUs, see {@link #sharesOnlyWholeSets}).
   */
  boolean holdsExclusively(Container c) {
    Resources r = c.resources();
    boolean whole =
        r.cpuRequestMilli() >= 1000
            && r.cpuRequestMilli() % 1000 == 0
            && r.cpuRequestMilli() == r.cpuLimitMilli()
            && c.assignment().cpus().size() == r.cpuRequestMilli() / 1000;
    return switch (this) {
      case TEMPLATE -> whole;
      case TOPOLOGY_AWARE -> whole && c.qosClass() == QosClass.GUARANTEED;
      case BALLOONS -> false;
    };
  }

  /** Whether any two containers' CPUs are either the same set (one balloon) or disjoint. */
  boolean sharesOnlyWholeSets() {
    return this == BALLOONS;
  }
}
