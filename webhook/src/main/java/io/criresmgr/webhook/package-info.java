/** {@code cri-resmgr-webhook}: the command line of the mutating admission webhook. */
@NullMarked
package io.criresmgr.webhook;

import org.jspecify.annotations.NullMarked;
