/**
 * The agent's own {@code v1.Agent} gRPC service on the agent socket: the daemon reads and patches
 * its Node, sets extended resource capacities and asks for the agent's health through it.
 */
@NullMarked
package io.criresmgr.agent.server;

import org.jspecify.annotations.NullMarked;
