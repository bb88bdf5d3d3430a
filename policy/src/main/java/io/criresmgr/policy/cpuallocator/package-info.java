/**
 * The CPU allocator shared by the placement policies (reference §4.9): picks CPUs whole packages
 * and whole cores first, topologically close, by CPU priority, deterministically.
 */
@NullMarked
package io.criresmgr.policy.cpuallocator;

import org.jspecify.annotations.NullMarked;
