/**
 * The {@code topology-aware} policy (reference §4.4, nri-plugins §4): a tree of pools following the
 * hardware (root, sockets, dies, NUMA nodes), scored per request; exclusive, isolated, shared and
 * reserved CPU grants; NUMA-local memory by type with widening when a node is short.
 */
@NullMarked
package io.criresmgr.policy.topologyaware;

import org.jspecify.annotations.NullMarked;
