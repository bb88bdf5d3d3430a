/** The {@code none} policy. */
@NullMarked
package io.criresmgr.policy.none;

import org.jspecify.annotations.NullMarked;
