/**
 * The CPU allocator shared by the placement policies (as cri-resmgr's {@code pkg/cpuallocator}):
 * picks CPUs whole packages and whole cores first, then single threads close to what is already
 * taken, by CPU priority, deterministically, in cri-resmgr's exact order.
 *
 * <p>{@link io.criresmgr.policy.cpuallocator.CpuAllocator} is the public entry point; it is
 * immutable and may be shared between threads. The package-private classes are its parts: {@code
 * Layout} (the topology as dense arrays, built once), {@code Selection} (one allocation's working
 * state, confined to the calling thread), {@code PriorityOrder} (cri-resmgr's priority comparison)
 * and {@code PriorityDiscovery} (priority classes from cpufreq and core types).
 */
@NullMarked
package io.criresmgr.policy.cpuallocator;

import org.jspecify.annotations.NullMarked;
