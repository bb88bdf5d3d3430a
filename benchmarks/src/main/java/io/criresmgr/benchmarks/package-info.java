/**
 * JMH benchmarks of the CRI relay: a small unary call direct to a fake runtime, via the full
 * cri-resmgr daemon, and via a bare raw-bytes relay. See docs/benchmarks.md for how to run them.
 */
@NullMarked
package io.criresmgr.benchmarks;

import org.jspecify.annotations.NullMarked;
