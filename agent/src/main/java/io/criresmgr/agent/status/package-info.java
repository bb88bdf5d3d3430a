/**
 * The configuration status made visible on the Node: annotations naming the ConfigMap the pushed
 * configuration came from and the daemon's rejection of it.
 */
@NullMarked
package io.criresmgr.agent.status;

import org.jspecify.annotations.NullMarked;
