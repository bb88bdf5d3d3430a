/** The mutating admission webhook (shell for now). */
@NullMarked
package io.criresmgr.webhook;

import org.jspecify.annotations.NullMarked;
