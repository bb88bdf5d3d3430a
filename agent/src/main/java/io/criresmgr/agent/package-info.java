/** The node agent ({@code cri-resmgr-agent}): its command line and the running agent. */
@NullMarked
package io.criresmgr.agent;

import org.jspecify.annotations.NullMarked;
