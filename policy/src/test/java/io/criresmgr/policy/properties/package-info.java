/**
 * Property tests (seeded generated cases, plain JUnit) of the invariants every built-in policy
 * keeps on generated topologies and workloads (docs/fuzzing.md).
 */
@NullMarked
package io.criresmgr.policy.properties;

import org.jspecify.annotations.NullMarked;
