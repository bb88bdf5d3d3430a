/**
 * Pushing the chosen configuration to the cri-resmgr daemon: {@code v1.Config.SetConfig} on the
 * daemon's config socket, with retries and the daemon's verdict kept as the configuration status.
 */
@NullMarked
package io.criresmgr.agent.push;

import org.jspecify.annotations.NullMarked;
