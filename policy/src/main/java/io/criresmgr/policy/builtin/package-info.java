/** The list of built-in policies: the one place a new policy is registered. */
@NullMarked
package io.criresmgr.policy.builtin;

import org.jspecify.annotations.NullMarked;
