/**
 * {@code cri-resmgr-agent-probe}: the liveness and readiness probe of the agent's DaemonSet, a
 * {@code HealthCheck} call on the agent socket.
 */
@NullMarked
package io.criresmgr.agent.probe;

import org.jspecify.annotations.NullMarked;
