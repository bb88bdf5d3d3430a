/** The node agent: watches cluster configuration and pushes it to the daemon (shell for now). */
@NullMarked
package io.criresmgr.agent;

import org.jspecify.annotations.NullMarked;
