package io.criresmgr.policy;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.NodeState;
import java.util.List;
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
   * The variables to export for each of {@code containers} (names to values), in the same order; an
   * empty map for a container the policy holds nothing for. Called on the pipeline thread with the
   * containers whose assignment may have changed in a step; must not change anything. A list, not a
   * map by cache id: a step may ask for the hundreds of containers a decision re-assigned, and a
   * map entry each was a twentieth of such a decision's garbage (docs/benchmarks.md, "Issue 20: the
   * saver's snapshot off the queue").
   */
  List<Map<String, String>> exportedResources(List<Container> containers, NodeState node);
}
