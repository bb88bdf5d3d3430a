/**
 * The {@code template} policy: a small, complete example for policy writers (see {@code
 * docs/policy-writers-guide.md}), also used by tests. Whole-CPU Guaranteed-style containers get
 * exclusive CPUs; all others share the rest.
 */
@NullMarked
package io.criresmgr.policy.template;

import org.jspecify.annotations.NullMarked;
