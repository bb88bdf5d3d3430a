/**
 * The {@code topology-aware} policy (docs/policy/topology-aware.md): a tree of pools following the
 * hardware, scored per request; exclusive, isolated, shared and reserved CPU grants; memory close
 * to the CPUs, by type, widened when a node runs short.
 *
 * <pre>
 *  TopologyAwarePolicyProvider ── create ──► CpuConstraints (available / reserved CPUs)
 *                                            PoolTreeBuilder ──► PoolTree of Pools
 *  TopologyAwarePolicy.allocate(container, node)
 *    open:  policy data ──(StateMemo or Reconciler)──► Ledger (grants + per-pool accounts)
 *           the grants are a persistent GrantTable (AvlTree): a decision's copy shares them,
 *           and the policy data it returns is a read-only view of them
 *    RequestSource (Preferences, Affinities) ──► ContainerRequest
 *    GrantAllocator: PoolAffinities + PoolSelector (PoolScore) ──► pool ──► Grant
 *                    MemorySupply, MemoryGuarantee (moves grants upward)
 *    Session.finish: GrantAssignments ──► Decisions (assignments + policy data)
 * </pre>
 *
 * <p>Thread-safety: the policy runs on the pipeline thread only. Pools, trees, grants and frozen
 * ledgers are immutable; a working {@code Ledger} belongs to one decision. The policy's only state
 * between calls is the policy data the cache keeps.
 */
@NullMarked
package io.criresmgr.policy.topologyaware;

import org.jspecify.annotations.NullMarked;
