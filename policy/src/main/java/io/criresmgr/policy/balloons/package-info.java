/**
 * The {@code balloons} policy (reference §4.5, nri-plugins §3): named, resizable CPU pools
 * ("balloons") of configured types that inflate and deflate with their containers' requests. Being
 * built: options and validation ({@link io.criresmgr.policy.balloons.BalloonsOptions}) and the CPU
 * tree that chooses which CPUs a balloon gains or loses ({@link
 * io.criresmgr.policy.balloons.CpuTreeAllocator}) exist; the policy itself is not registered yet.
 */
@NullMarked
package io.criresmgr.policy.balloons;

import org.jspecify.annotations.NullMarked;
