/**
 * The agent's side of the {@code Adjustment} custom resource: parsing, the node's scope, pushing
 * the in-scope set to the daemon with {@code v1.Config.SetAdjustment}, and writing the daemon's
 * errors back to each adjustment's {@code status.nodes.<node>.errors}.
 */
@NullMarked
package io.criresmgr.agent.adjust;

import org.jspecify.annotations.NullMarked;
