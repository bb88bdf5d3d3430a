package io.criresmgr.policy.sysfs;

import java.util.List;

/**
 * The compact topology spec of the reference e2e suites (DESIGN §6), e.g. {@code
 * [{"mem":"2G","cores":2,"nodes":2,"packages":2}]}: a list of groups, each with {@code mem}, {@code
 * cores} per node, {@code threads} per core (default 2), {@code nodes} per die, {@code dies} per
 * package, {@code packages}, {@code node-dist}, {@code cpus-present}; a group with only memory
 * describes memory-only nodes.
 *
 * @param groups the groups in order; NUMA nodes and CPUs are numbered across them
 */
public record TopologySpec(List<Group> groups) {
  /** Copies the list. */
  public TopologySpec {
    groups = List.copyOf(groups);
  }

  /**
   * Parses the JSON (or YAML flow) text of a spec.
   *
   * @throws io.criresmgr.policy.PolicyException naming the group, the key and the bad value
   */
  public static TopologySpec parse(String text) {
    throw new UnsupportedOperationException("not yet: " + text);
  }

  /** One group of identical NUMA nodes; the helper defines its fields. */
  public record Group() {}
}
