package io.criresmgr.policy;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.NodeState;
import java.util.Collection;
import java.util.Map;

/**
 * Optional interface of a {@link Policy} that tells a container what it was given, as shell
 * variables the daemon writes to {@code /.cri-resmgr/resources.sh} inside the container
 * (cri-resmgr's {@code ExportResourceData}; docs/exported-resources.md). A policy without it
 * exports an empty file, as cri-resmgr's policies other than topology-aware did.
 */
public interface ResourceExport {
  /** The container's shared CPUs (a cpuset list such as {@code 0-3,8}). */
  String SHARED_CPUS = "SHARED_CPUS";

  /** The container's exclusive CPUs that are not kernel-isolated. */
  String EXCLUSIVE_CPUS = "EXCLUSIVE_CPUS";

  /** The container's exclusive kernel-isolated CPUs. */
  String ISOLATED_CPUS = "ISOLATED_CPUS";

  /** Every memory node the container may use (comma-separated ids). */
  String ALL_MEMS = "ALL_MEMS";

  /** The container's DRAM memory nodes. */
  String DRAM_MEMS = "DRAM_MEMS";

  /** The container's PMEM memory nodes. */
  String PMEM_MEMS = "PMEM_MEMS";

  /** The container's HBM memory nodes. */
  String HBM_MEMS = "HBM_MEMS";

  /**
   * The variables to export for each of {@code containers}, by cache id (names to values); a
   * container the policy holds nothing for may be left out. Called on the pipeline thread with the
   * containers whose assignment may have changed in a step; must not change anything.
   */
  Map<String, Map<String, String>> exportedResources(
      Collection<Container> containers, NodeState node);
}
