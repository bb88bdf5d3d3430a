/**
 * The {@code balloons} policy (docs/policy/balloons.md): named, resizable CPU pools ("balloons") of
 * configured types that inflate and deflate with their containers' requests.
 *
 * <pre>
 *   options:  BalloonsOptions ─ BalloonType (+ built-in reserved, default)
 *   state:    policy data ──(DataMemo or BalloonState; PlacementKey decides re-placing)──► BalloonSet
 *   placing:  Placer ─ BalloonTypeChooser (annotation, namespaces, expressions) ─ FillChain
 *   sizing:   BalloonSet.replaceAndResize ─ CpuTreeAllocator (CpuTree, CPU allocator)
 *   pinning:  BalloonAssignments ─ KnownAssignments (the previous call), IdleCpuSharing,
 *             MemoryNodes, PinningOverrides
 *   showing:  BalloonsView (introspection, gauge "balloons"), CpuClasses
 * </pre>
 */
@NullMarked
package io.criresmgr.policy.balloons;

import org.jspecify.annotations.NullMarked;
