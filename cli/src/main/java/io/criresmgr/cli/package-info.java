/** Command-line support shared by the daemon, the node agent and the webhook. */
@NullMarked
package io.criresmgr.cli;

import org.jspecify.annotations.NullMarked;
